import { scoreOsceChecklist } from "../../../src/clinical/osce-checklist.ts";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { AttributeJudge } from "../../../src/metrics/attribute-judge.ts";
import { BOOTSTRAP_DEFAULTS, bootstrapMean, type BootstrapInterval } from "../../../src/metrics/bootstrap.ts";
import { diagnosisMatcher } from "../../../src/metrics/diagnosis-match.ts";
import type { ConsultCase } from "../../../src/simulator/consultation/consult-case.ts";
import { ARMS, type Arm } from "../../../src/simulator/consultation/controls.ts";
import type { ArmRecord, ConsultLine } from "./consult-lines.ts";

/**
 * The measures of the consultation suites, per case and overall, each overall figure a mean over the
 * cases with its bootstrap 95 % interval (`src/metrics/bootstrap.ts`: 1,000 resamples, seed 20240601):
 * - accuracy: the option letter is the case's `answer_idx` (MediQ), or the diagnosis names the correct
 *   one by the offline judge (`src/metrics/diagnosis-match.ts`) — and, labelled apart, by an LLM judge
 *   when one is given; a library case whose diagnosis is "none supportable" is right only with none;
 * - questions asked (and tests requested), MediQ's count: the doctor's questions the patient answered;
 * - timeout rate, MediQ's definition: the share of cases where the limit was reached before the doctor
 *   answered of its own accord;
 * - fact recall: the share of the case's facts the patient revealed (the opening included);
 * - the OSCE checklist (`src/clinical/osce-checklist.ts`): coverage of the applicable items, repeated
 *   questions, and questions about unrelated systems asked before the complaint's own items were done.
 */

/** One arm of one case. */
export interface CaseMeasures {
  readonly answer: string | null;
  readonly correct: boolean;
  /** The LLM judge's verdict (null: the judge failed); absent without an LLM judge. */
  readonly judged?: boolean | null;
  readonly ending: ArmRecord["ending"];
  readonly timeout: boolean;
  readonly questions: number;
  readonly requests: number;
  /** Null when the case has no facts. */
  readonly factRecall: number | null;
  readonly checklist: { readonly coverage: number; readonly repeated: number; readonly offTopic: number };
}

/** One arm over all cases. */
export interface ArmScores {
  readonly accuracy: BootstrapInterval;
  /** By the LLM judge, over the cases it judged; absent without one. */
  readonly judgedAccuracy?: BootstrapInterval;
  readonly judgeFailures: number;
  readonly questions: BootstrapInterval;
  readonly requests: BootstrapInterval;
  readonly timeoutRate: BootstrapInterval;
  readonly factRecall: BootstrapInterval;
  readonly checklistCoverage: BootstrapInterval;
  readonly repeatedQuestions: BootstrapInterval;
  readonly offTopicQuestions: BootstrapInterval;
  readonly formatErrors: number;
  readonly patientFailures: number;
}

/** A consultation suite's scores (results.json). */
export interface ConsultScores {
  readonly cases: number;
  readonly ending: "choice" | "diagnosis";
  /** `exact` (the offline judge alone) or the LLM judge's backend id. */
  readonly judge: string;
  readonly bootstrap: typeof BOOTSTRAP_DEFAULTS;
  readonly arms: Readonly<Record<Arm, ArmScores>>;
  readonly perCase: ReadonlyArray<{
    readonly id: string;
    readonly key: string | null;
    readonly arms: Readonly<Record<Arm, CaseMeasures>>;
  }>;
}

/** The correct answer of a case: its option letter, its diagnosis, or null (no diagnosis is supportable). */
export function answerKey(patientCase: ConsultCase): string | null {
  return patientCase.ending.answer;
}

/** Whether an answer is right, by the offline judge. */
export function isCorrect(patientCase: ConsultCase, answer: string | null): boolean {
  const key = answerKey(patientCase);
  if (patientCase.ending.kind === "choice") return answer === key;
  if (key === null) return answer === null;
  if (answer === null) return false;
  const names = [key, ...(patientCase.ending.accepted ?? [])];
  return names.some((name) => diagnosisMatcher().matches(name, answer));
}

/** The share of the case's facts the patient's turns revealed. */
function factRecall(patientCase: ConsultCase, record: ArmRecord): number | null {
  if (patientCase.facts.length === 0) return null;
  const known = new Set(patientCase.facts.map((fact) => fact.id));
  const revealed = new Set(
    record.turns
      .filter((turn) => turn.speaker === "patient")
      .flatMap((turn) => (turn.revealed ?? []).filter((id) => known.has(id))),
  );
  return revealed.size / known.size;
}

/** One arm of one case measured (the LLM verdict is added by the caller). */
function measure(patientCase: ConsultCase, record: ArmRecord): CaseMeasures {
  const checklist = scoreOsceChecklist(
    record.turns.map((turn) => ({ speaker: turn.speaker, text: turn.text })),
    patientCase.profile,
  );
  return {
    answer: record.answer,
    correct: isCorrect(patientCase, record.answer),
    ending: record.ending,
    timeout: record.timeout,
    questions: record.questions,
    requests: record.requests,
    factRecall: factRecall(patientCase, record),
    checklist: {
      coverage: checklist.coverage,
      repeated: checklist.repeatedQuestions,
      offTopic: checklist.offTopicBeforeComplaintDone,
    },
  };
}

/** The LLM judge's verdict on an answer; null when the judge failed (after its retries), so the run completes. */
async function verdictOf(judge: AttributeJudge, key: string | null, answer: string | null): Promise<boolean | null> {
  if (key === null || answer === null) return key === null && answer === null;
  try {
    const [verdict] = await judge.equivalent([{ gold: key, predicted: answer }]);
    return verdict ?? null;
  } catch {
    return null;
  }
}

/** An arm's figures over the cases. */
function armScores(measures: readonly CaseMeasures[], judged: boolean): ArmScores {
  const mean = (pick: (measure: CaseMeasures) => number | null | undefined) =>
    bootstrapMean(measures.map(pick).filter((value): value is number => typeof value === "number"));
  const verdicts = measures.map((measure) => measure.judged);
  return {
    accuracy: mean((measure) => Number(measure.correct)),
    ...(judged
      ? { judgedAccuracy: mean((measure) => (typeof measure.judged === "boolean" ? Number(measure.judged) : null)) }
      : {}),
    judgeFailures: verdicts.filter((verdict) => verdict === null).length,
    questions: mean((measure) => measure.questions),
    requests: mean((measure) => measure.requests),
    timeoutRate: mean((measure) => Number(measure.timeout)),
    factRecall: mean((measure) => measure.factRecall),
    checklistCoverage: mean((measure) => measure.checklist.coverage),
    repeatedQuestions: mean((measure) => measure.checklist.repeated),
    offTopicQuestions: mean((measure) => measure.checklist.offTopic),
    formatErrors: measures.filter((measure) => measure.ending === "format error").length,
    patientFailures: measures.filter((measure) => measure.ending === "patient failed").length,
  };
}

/** Scores a consultation suite's lines against its cases; see the module comment. */
export async function scoreConsultations(
  caseOf: (id: string) => ConsultCase | undefined,
  lines: readonly ConsultLine[],
  judge: AttributeJudge,
): Promise<ConsultScores> {
  const cases = lines.map((line) => {
    const patientCase = caseOf(line.id);
    if (!patientCase) throw new AnamnesisError("INVALID_DATA", `line ${line.line}: case ${line.id} is not in the data`);
    return patientCase;
  });
  const llmJudge = judge.id !== "exact" && cases.some((entry) => entry.ending.kind === "diagnosis");
  const perCase = await Promise.all(
    lines.map(async (line, index) => {
      const patientCase = cases[index]!;
      const arms = {} as Record<Arm, CaseMeasures>;
      for (const arm of ARMS) {
        const measures = measure(patientCase, line.prediction[arm]);
        arms[arm] = llmJudge
          ? { ...measures, judged: await verdictOf(judge, answerKey(patientCase), measures.answer) }
          : measures;
      }
      return { id: line.id, key: answerKey(patientCase), arms };
    }),
  );
  const arms = Object.fromEntries(
    ARMS.map((arm) => [
      arm,
      armScores(
        perCase.map((entry) => entry.arms[arm]),
        llmJudge,
      ),
    ]),
  ) as Record<Arm, ArmScores>;
  return {
    cases: perCase.length,
    ending: cases[0]?.ending.kind ?? "choice",
    judge: llmJudge ? judge.id : "exact",
    bootstrap: BOOTSTRAP_DEFAULTS,
    arms,
    perCase,
  };
}
