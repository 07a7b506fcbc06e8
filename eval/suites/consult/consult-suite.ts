import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { EMBEDDED_BACKEND_ID } from "../../../src/modules/builders/create-modules.ts";
import type { ModuleCallInfo } from "../../../src/language/module-interfaces.ts";
import { exactJudge, type AttributeJudge } from "../../../src/metrics/attribute-judge.ts";
import type { ConsultCase } from "../../../src/simulator/consultation/consult-case.ts";
import { consultSplit, findConsultCase } from "../../../src/simulator/consultation/consult-dataset.ts";
import {
  runConsultation,
  runFullInformation,
  type ConsultationRecord,
  type ConsultationSetup,
} from "../../../src/simulator/consultation/consultation-loop.ts";
import { ARMS, complaintBlindDoctor } from "../../../src/simulator/consultation/controls.ts";
import type { BenchDataset, DatasetSource } from "../../shared/bench-dataset.ts";
import { inPredictionsFile, readLinesOf, type AnyPredictionLine } from "../../shared/predictions-file.ts";
import { transcriptsPath } from "../../shared/run-directory.ts";
import type { FormatError, Suite, SuiteExample } from "../../shared/suite.ts";
import type { SuiteModules } from "../../shared/suite-modules.ts";
import { consultDatasetOf } from "./consult-data.ts";
import { CONSULT_FAMILY } from "./consult-family.ts";
import { armRecordOf, CONSULT_LINES, expandedTurns, type ConsultLine } from "./consult-lines.ts";
import { consultReportSection, consultResultCells, terminalArmsTable } from "./consult-report.ts";
import { scoreConsultations, type ConsultScores } from "./consult-scoring.ts";

/**
 * One factory for the consultation suites: one example per case, which runs the case three times —
 * the complaint-blind floor, the doctor, and its full-information ceiling — and keeps the three
 * records on one predictions line (`consult-lines.ts`), so that `--limit` and `--shard` count cases
 * and a killed run resumes case by case. Scored by `consult-scoring.ts`, shown by `consult-report.ts`;
 * each arm's transcript is also written as JSON Lines under `transcripts/<suite>/<arm>/<case>.jsonl`.
 */

/** What names a consultation suite: its id, its data, its title and what its protocol is. */
export interface ConsultSuiteName<Id extends string> {
  readonly id: Id;
  readonly data: DatasetSource;
  readonly title: string;
  readonly protocol: string;
  readonly description: string;
  /** Whether its answers are diagnoses an LLM judge may read (`--judge`). */
  readonly judged: boolean;
}

/** What a case's three consultations cost, as a predictions line records it. */
function callInfo(records: Readonly<Record<(typeof ARMS)[number], ConsultationRecord>>): ModuleCallInfo {
  const all = Object.values(records);
  const sum = (pick: (record: ConsultationRecord) => number) => all.reduce((total, record) => total + pick(record), 0);
  const calls = sum((record) => record.cost.calls);
  const errors = ARMS.flatMap((arm) => (records[arm].format_error ? [`${arm}: ${records[arm].format_error}`] : []));
  return {
    latencyMs: sum((record) => record.cost.latencyMs),
    ...(calls > 0
      ? {
          usage: {
            inputTokens: sum((record) => record.cost.inputTokens),
            outputTokens: sum((record) => record.cost.outputTokens),
          },
        }
      : {}),
    cached: calls > 0 && sum((record) => record.cost.cached) === calls,
    ...(errors.length > 0 ? { formatError: errors.join("; ") } : {}),
  };
}

/**
 * Runs a case's floor, doctor and ceiling side by side: they share nothing, and while one waits (for
 * its model, or for the states tracked on another thread) the others go on. The case fails with the
 * first arm that failed, once all three are over.
 */
function predictCase(patientCase: ConsultCase): SuiteExample["predict"] {
  return async (modules: SuiteModules, options) => {
    const setup: ConsultationSetup | undefined = modules.consult;
    if (!setup) throw new AnamnesisError("INVALID_ARGUMENT", "the consultation suites need the consultation roles");
    const arms = await Promise.allSettled([
      runConsultation(patientCase, { ...setup, doctor: complaintBlindDoctor(setup.doctor) }, options),
      runConsultation(patientCase, setup, options),
      runFullInformation(patientCase, setup, options),
    ]);
    const failed = arms.find((arm) => arm.status === "rejected");
    if (failed) throw failed.reason;
    const [floor, doctor, ceiling] = arms.map((arm) => (arm as PromiseFulfilledResult<ConsultationRecord>).value);
    const records = { floor: floor!, doctor: doctor!, ceiling: ceiling! };
    const prediction = Object.fromEntries(ARMS.map((arm) => [arm, armRecordOf(records[arm])]));
    return { prediction, info: callInfo(records) };
  };
}

/** Writes every arm's transcript of every line: one turn a line, each tracked state written out. */
function writeTranscripts(dir: string, suite: string, lines: readonly AnyPredictionLine[]): void {
  for (const line of lines as readonly ConsultLine[]) {
    for (const arm of ARMS) {
      const folder = join(transcriptsPath(dir, suite), arm);
      mkdirSync(folder, { recursive: true });
      const turns = expandedTurns(line.prediction[arm].turns);
      const file = join(folder, `${line.id.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`);
      writeFileSync(file, turns.map((turn) => `${JSON.stringify(turn)}\n`).join(""));
    }
  }
}

/** The lines whose doctor (or control) reply could not be read, or whose patient failed, with why. */
function consultFormatErrors(lines: readonly AnyPredictionLine[]): FormatError[] {
  return (lines as readonly ConsultLine[]).flatMap((line) =>
    ARMS.flatMap((arm) => {
      const record = line.prediction[arm];
      const reason = record.format_error ?? record.failure;
      return reason ? [{ line, reason: `${arm}: ${reason}` }] : [];
    }),
  );
}

/**
 * Cases open per request allowed in flight, when a role is a backend: a case's calls follow one
 * another (the doctor waits for the patient, who waits for the doctor), and between two of them the
 * case does work of its own, so with only `--concurrency` cases open fewer requests than that are
 * waiting most of the time, and the last cases end one by one. With four times as many open, the
 * backend's queue stays full and its limit alone sets how many are in flight (bench/consult.ts).
 */
const OPEN_CASES_PER_REQUEST = 4;

/** How many cases a run keeps open: `--concurrency` for the embedded roles (no requests to wait for), more for a backend. */
function openCases(concurrency: number, modules: SuiteModules): number {
  const setup = modules.consult;
  const requests = setup !== undefined && [setup.doctor.id, setup.patient.id].some((id) => id !== EMBEDDED_BACKEND_ID);
  return requests ? concurrency * OPEN_CASES_PER_REQUEST : concurrency;
}

/** A consultation suite from its name; see the module comment. */
export function consultSuite<const Id extends string>(name: ConsultSuiteName<Id>): Suite<Id, ConsultScores> {
  // Case ids are unique across a dataset's splits (MediQ's carry their split: `icraft-12`).
  const score = (dataset: BenchDataset, lines: readonly AnyPredictionLine[], judge?: AttributeJudge) => {
    const consult = consultDatasetOf(dataset);
    return scoreConsultations(
      (id) => findConsultCase(consult, id),
      lines as readonly ConsultLine[],
      judge ?? exactJudge,
    );
  };
  return {
    id: name.id,
    family: CONSULT_FAMILY,
    data: name.data.id,
    module: "consult",
    protocol: name.protocol,
    format: CONSULT_LINES,
    openExamples: openCases,
    examples: (dataset, split) =>
      consultSplit(consultDatasetOf(dataset), split).map((patientCase) => ({
        key: patientCase.id,
        fields: { id: patientCase.id },
        predict: predictCase(patientCase),
      })),
    score,
    resultCells: consultResultCells,
    reportSection: ({ scores, ourLabel }) => consultReportSection(name.title, scores, ourLabel),
    baselines: [],
    formatErrors: consultFormatErrors,
    writeArtifacts: (dir, lines) => writeTranscripts(dir, name.id, lines),
    scoreCommand: {
      description: name.description,
      predictionsHelp:
        "JSONL, one line per case: {id, prediction: {floor, doctor, ceiling}} as `anamnesis bench` writes it",
      judged: name.judged,
      run: async ({ predictions, data, judge }) => {
        const dataset = name.data.load(data);
        const lines = readLinesOf(predictions, CONSULT_LINES);
        const chosen = await judge();
        return inPredictionsFile(predictions, () => score(dataset, lines, chosen));
      },
      print: (scores) => terminalArmsTable(name.title, scores),
    },
  };
}
