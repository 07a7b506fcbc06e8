/**
 * The consultation sections of `docs/measurements.md` (run by `bench/measurements.ts`): the embedded
 * doctor between its complaint-blind floor and its full-information ceiling on MediQ's iCraft-MD cases,
 * AgentClinic's bundled MedQA cases and our library, each the suite's own `anamnesis bench` command; and
 * the speed limits of `bench/consult.ts`.
 */
import type { Figure } from "../test-support/measurements-page.ts";
import {
  fixed,
  percent,
  pick,
  seconds,
  type CommandOutput,
  type Measurement,
  type PlanOptions,
} from "./measurement-plan.ts";

/** A mean with its bootstrap 95 % interval, as results.json holds it. */
interface Interval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

/** One arm of a consultation suite in results.json. */
interface ArmFigures {
  readonly accuracy: Interval;
  readonly questions: Interval;
  readonly requests: Interval;
  readonly timeoutRate: Interval;
  readonly factRecall: Interval;
  readonly checklistCoverage: Interval;
  readonly repeatedQuestions: Interval;
  readonly offTopicQuestions: Interval;
  readonly formatErrors: number;
  readonly patientFailures: number;
}

/** A consultation suite's scores in results.json. */
interface ConsultSuiteFigures {
  readonly cases: number;
  readonly arms: Readonly<Record<"floor" | "doctor" | "ceiling", ArmFigures>>;
}

const ARM_NAMES = {
  floor: "floor: complaint-blind list, answered by the embedded doctor",
  doctor: "embedded doctor × embedded patient",
  ceiling: "ceiling: every fact given up front, answered by the embedded doctor",
} as const;

/** A share with its interval, in per cent. */
const share = (interval: Interval): string =>
  `${percent(interval.mean)} [${fixed(interval.low * 100, 1)}, ${fixed(interval.high * 100, 1)}]`;

/** An arm's line: accuracy first, then what the consultation drew out (the ceiling asks nothing). */
function armLine(arm: keyof typeof ARM_NAMES, figures: ArmFigures): string {
  const accuracy = `accuracy ${share(figures.accuracy)}`;
  if (arm === "ceiling") return accuracy;
  return [
    accuracy,
    `questions ${fixed(figures.questions.mean, 1)}`,
    `timeouts ${percent(figures.timeoutRate.mean)}`,
    `fact recall ${share(figures.factRecall)}`,
    `OSCE checklist ${share(figures.checklistCoverage)}`,
    `repeated ${fixed(figures.repeatedQuestions.mean, 2)}`,
    `off-topic first ${fixed(figures.offTopicQuestions.mean, 2)}`,
  ].join("; ");
}

/** The figures of one consultation suite's results. */
function consultFigures(suite: string): (output: CommandOutput) => Figure[] {
  return ({ data }) => {
    const scores = (data as { suites: Record<string, ConsultSuiteFigures> }).suites[suite]!;
    return [
      { name: "cases", value: String(scores.cases) },
      ...(["floor", "doctor", "ceiling"] as const).map((arm) => ({
        name: ARM_NAMES[arm],
        value: armLine(arm, scores.arms[arm]),
      })),
    ];
  };
}

/** The `anamnesis bench` command of a consultation suite (five cases in a smoke run). */
const suiteCommand =
  (suite: string) =>
  (options: PlanOptions): readonly string[] => [
    "npx",
    "anamnesis",
    "bench",
    "--suite",
    suite,
    ...pick(options, [], ["--limit", "5"]),
    "--out",
    `runs/measurements-${suite}`,
    "--restart",
    "--json",
  ];

/** What `bench/consult.ts --json` prints. */
interface SpeedFigures {
  readonly embedded: {
    readonly cases: number;
    readonly runs: number;
    readonly medianWall: number;
    readonly minWall: number;
    readonly maxWall: number;
    readonly medianCpu?: number;
  };
  readonly llm: {
    readonly cases: number;
    readonly concurrency: number;
    readonly latencyMs: number;
    readonly requests: number;
    readonly spanMs: number;
    readonly idealMs: number;
    readonly efficiency: number;
  };
}

function speedFigures({ data }: CommandOutput): Figure[] {
  const { embedded, llm } = data as SpeedFigures;
  return [
    {
      name: `\`anamnesis bench --suite consult-mediq\`, ${embedded.cases} cases × floor, doctor, ceiling, start-up included (target ≤ 10 s wall on 2 cores)`,
      value: `median ${seconds(embedded.medianWall)} wall (min ${seconds(embedded.minWall)}, max ${seconds(embedded.maxWall)}, ${embedded.runs} runs${embedded.medianCpu === undefined ? "" : `; CPU ${seconds(embedded.medianCpu)}`})`,
    },
    {
      name: `LLM doctor at concurrency ${llm.concurrency}, local server answering after ${llm.latencyMs} ms, ${llm.cases} cases (target ≥ 90 % of ideal)`,
      value: `${percent(llm.efficiency)} of ideal (${llm.requests} requests in ${seconds(llm.spanMs / 1000)}, ideal ${seconds(llm.idealMs / 1000)})`,
    },
  ];
}

const CONTROLS_NOTE =
  "The embedded doctor is the offline floor of the field, not a contender: it answers from what the patient said (and, for MediQ, the options), never from the answer key. Each figure is read between the complaint-blind floor (a fixed list of generic questions) and the full-information ceiling (every fact given up front, the same answerer); intervals are bootstrap 95 % (1,000 resamples, seed 20240601).";

/** The consultation measurements: three suites (exact figures, the same on any machine) and the speed limits. */
export const CONSULT_MEASUREMENTS: readonly Measurement[] = [
  {
    name: "consult-mediq",
    title: "Consultations: MediQ iCraft-MD (140 cases), embedded doctor",
    note: `MediQ's protocol: the doctor hears the initial information, asks within 30 questions, then commits to one option letter. ${CONTROLS_NOTE}`,
    command: suiteCommand("consult-mediq"),
    json: true,
    figures: consultFigures("consult-mediq"),
  },
  {
    name: "consult-agentclinic",
    title: "Consultations: AgentClinic MedQA (the 150 bundled cases), embedded doctor",
    note: `AgentClinic's protocol: the doctor is told the objective, converses and may request tests within 20 turns, then names a diagnosis, judged offline (ontology/diagnosis-synonyms.json). ${CONTROLS_NOTE}`,
    command: suiteCommand("consult-agentclinic"),
    json: true,
    figures: consultFigures("consult-agentclinic"),
  },
  {
    name: "consult-library",
    title: "Consultations: our case library, embedded doctor, scripted lay patients",
    note: `Each patient speaks only its case's hand-written lay script; the diagnosis is judged against the one the case states by hand (none only where the case says none is supportable). ${CONTROLS_NOTE}`,
    command: suiteCommand("consult-library"),
    json: true,
    figures: consultFigures("consult-library"),
  },
  {
    name: "consult-speed",
    title: "Consultations: speed limits",
    note: "The offline run is timed as a whole process; the LLM run from the first request to the last reply, against `calls × latency / concurrency` (calls within a case follow one another).",
    command: (options) => [
      "npx",
      "tsx",
      "bench/consult.ts",
      ...pick(options, [], ["--runs", "1", "--limit", "3", "--cases", "4", "--concurrency", "4", "--questions", "1"]),
      "--json",
    ],
    json: true,
    figures: speedFigures,
  },
];
