/**
 * What `bench/measurements.ts` measures: one entry per section of `docs/measurements.md`, each the
 * command of one script (as a user would type it, full settings or `--quick` ones) and how its output
 * becomes the figures of the page. The scripts print JSON under `--json`; the figures are formatted
 * here and nowhere else, so the page and the README say the same thing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import type { Figure } from "../test-support/measurements-page.ts";

/** The driver's settings that change what a command is. */
export interface PlanOptions {
  /** Small settings for a smoke run. */
  readonly quick: boolean;
  readonly python?: string;
  readonly pythonRefs?: string;
  /** Another built checkout to time the bench command against (`bench/startup.ts --against`). */
  readonly against?: string;
  /** Also time `npm test` (minutes). */
  readonly npmTest: boolean;
  /** A dair-iitd/MediTOD checkout, for the official protocol's parity check (else MEDITOD_REPO). */
  readonly meditodRepo?: string;
}

/** What one command printed: its stdout, parsed as JSON when the measurement asks for it. */
export interface CommandOutput {
  readonly stdout: string;
  // The scripts' own JSON, read by the figure functions of their entries below.
  readonly data: unknown;
}

/** One section of the page. */
export interface Measurement {
  readonly name: string;
  readonly title: string;
  readonly note?: string;
  /** The command, as argv; the first word is run from the package's folder. */
  command(options: PlanOptions): readonly string[];
  /** Whether stdout is the script's JSON (else `data` is read by `read`). */
  readonly json: boolean;
  /** Reads the data of a command whose stdout is not JSON (the run directory `npm run bench` writes). */
  read?(): unknown;
  /** Exit statuses that still carry figures (a control run that must report losses exits 1). */
  readonly acceptExit?: readonly number[];
  /** Needs something not installed by default: a failure skips the section instead of failing the run. */
  readonly optional?: boolean;
  figures(output: CommandOutput): Figure[];
}

// ---- formatting: one place, so that page and README agree ----

export const fixed = (value: number, digits: number): string => value.toFixed(digits);
export const seconds = (value: number): string => `${value.toFixed(3)} s`;
export const ms = (value: number, digits = 2): string => `${value.toFixed(digits)} ms`;
export const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;
export const count = (value: number): string => Math.round(value).toLocaleString("en-US");
export const perSecond = (value: number, unit: string): string => `${count(value)} ${unit}/s`;

/** A whole-process timing of `bench/startup.ts` or `bench/metrics-python.ts`. */
export interface Timing {
  readonly runs: number;
  readonly medianWall: number;
  readonly minWall: number;
  readonly maxWall: number;
  readonly medianCpu?: number;
}

export const timing = (t: Timing): string =>
  `median ${seconds(t.medianWall)} (min ${seconds(t.minWall)}, max ${seconds(t.maxWall)}, ${t.runs} run${t.runs === 1 ? "" : "s"}${t.medianCpu === undefined ? "" : `; CPU ${seconds(t.medianCpu)}`})`;

/** The quick variant of a command's settings, or the full one. */
const pick = (options: PlanOptions, full: readonly string[], quick: readonly string[]): readonly string[] =>
  options.quick ? quick : full;

// ---- the scores: test split, valid split, leave-one-out, self-play, note suites ----

/** The three MediTOD suites' scores in a results.json. */
interface MeditodSuites {
  "meditod-nlu": {
    overall: { f1: number };
    medical: { f1: number };
    non_medical: { f1: number };
    joint_accuracy: number;
    format_errors: number;
  };
  "meditod-pol": { overall: { f1: number }; precision_at: Record<string, number>; format_errors: number };
  "meditod-nlg": { bleu2: number; bleu4: number; rouge1: number; rougeL: number; format_errors: number };
}

/** The run directory `npm run bench` writes (package.json's `bench` script). */
export const DEFAULT_RUN_DIR = join(PACKAGE_ROOT, "runs", "default");

export function meditodFigures(data: unknown): Figure[] {
  const suites = (data as { suites: MeditodSuites }).suites;
  const nlu = suites["meditod-nlu"];
  const pol = suites["meditod-pol"];
  const nlg = suites["meditod-nlg"];
  return [
    {
      name: "NLU F1 (overall / medical / non-medical)",
      value: `${fixed(nlu.overall.f1, 4)} / ${fixed(nlu.medical.f1, 4)} / ${fixed(nlu.non_medical.f1, 4)}`,
    },
    { name: "NLU joint accuracy", value: fixed(nlu.joint_accuracy, 4) },
    { name: "policy F1", value: fixed(pol.overall.f1, 4) },
    {
      name: "policy P@1 / P@4 / P@inf",
      value: `${fixed(pol.precision_at["1"]!, 4)} / ${fixed(pol.precision_at["4"]!, 4)} / ${fixed(pol.precision_at.inf!, 4)}`,
    },
    { name: "NLG BLEU-2 / BLEU-4", value: `${fixed(nlg.bleu2, 2)} / ${fixed(nlg.bleu4, 2)}` },
    { name: "NLG ROUGE-1 / ROUGE-L", value: `${fixed(nlg.rouge1, 4)} / ${fixed(nlg.rougeL, 4)}` },
    {
      name: "format errors (NLU / policy / NLG)",
      value: `${fixed(nlu.format_errors, 4)} / ${fixed(pol.format_errors, 4)} / ${fixed(nlg.format_errors, 4)}`,
    },
  ];
}

/** The figures of one leave-one-out fold, or of their mean. */
export interface FoldFigures {
  readonly nluF1: number;
  readonly polF1: number;
  readonly polP1: number;
  readonly bleu4: number;
  readonly rougeL: number;
}

export const foldLine = (f: FoldFigures): string =>
  `NLU F1 ${fixed(f.nluF1, 4)} · POL F1 ${fixed(f.polF1, 4)} · P@1 ${fixed(f.polP1, 4)} · BLEU-4 ${fixed(f.bleu4, 2)} · ROUGE-L ${fixed(f.rougeL, 4)}`;

function leaveOneOutFigures({ data }: CommandOutput): Figure[] {
  const { folds, mean } = data as { folds: Array<FoldFigures & { heldOut: string }>; mean: FoldFigures };
  return [
    ...folds.map((fold) => ({ name: `held out ${fold.heldOut}`, value: foldLine(fold) })),
    { name: `mean of ${folds.length}`, value: foldLine(mean) },
  ];
}

/** `anamnesis simulate --json`'s summary. */
interface SelfPlaySummary {
  cases: number;
  patients: { script: number; profile: number };
  meanChecklistCoverage: number;
  checklistRepeats: number;
  offTopicQuestions: number;
  meanFactRecall: number | null;
  meanProfileItems: number;
  meanProfileValues: number;
  meanProfileAttributes: number;
  meanDoctorTurns: number;
  repeatedQuestions: number;
  redFlags: { expected: number; caught: number; missed: number; falseAlarms: number };
  closingFit: number;
  closings: Record<string, number>;
}

function selfPlayFigures({ data }: CommandOutput): Figure[] {
  const s = data as SelfPlaySummary;
  return [
    {
      name: "cases (scripted patient / profile patient)",
      value: `${count(s.cases)} (${s.patients.script} / ${s.patients.profile})`,
    },
    { name: "mean OSCE checklist coverage of the doctor's questions", value: percent(s.meanChecklistCoverage) },
    {
      name: "mean fact recall (scripted patients)",
      value: s.meanFactRecall === null ? "n/a" : percent(s.meanFactRecall),
    },
    {
      name: "mean profile items the doctor's actions named, secondary (values / attributes)",
      value: `${percent(s.meanProfileItems)} (${percent(s.meanProfileValues)} / ${percent(s.meanProfileAttributes)})`,
    },
    { name: "mean doctor turns", value: fixed(s.meanDoctorTurns, 1) },
    {
      name: "repeated questions, all cases (read from the words / CMAS inquiries)",
      value: `${count(s.checklistRepeats)} / ${count(s.repeatedQuestions)}`,
    },
    {
      name: "questions off the complaint's systems before its own history was done",
      value: count(s.offTopicQuestions),
    },
    {
      name: "red flags caught / expected (false alarms)",
      value: `${s.redFlags.caught} / ${s.redFlags.expected} (${s.redFlags.falseAlarms})`,
    },
    { name: "closing fit (right diagnosis, or none where the case supports none)", value: percent(s.closingFit) },
    {
      name: "closings",
      value: Object.entries(s.closings)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(", "),
    },
  ];
}

function noteSuiteFigures({ data }: CommandOutput): Figure[] {
  const suites = (data as { suites: Record<string, Record<string, number | null>> }).suites;
  const notes = suites["mts-dialog"]!;
  const perplexity = suites["mts-dialog-perplexity"]!;
  const value = (x: number | null | undefined, digits: number) => (typeof x === "number" ? fixed(x, digits) : "null");
  return [
    {
      name: "mts-dialog BLEU / ROUGE-1 / ROUGE-2 / ROUGE-L",
      value: [notes.bleu, notes.rouge1, notes.rouge2, notes.rougeL].map((x) => value(x, 4)).join(" / "),
    },
    {
      name: "mts-dialog-perplexity word / byte perplexity, bits per byte",
      value: `${value(perplexity.word_perplexity, 1)} / ${value(perplexity.byte_perplexity, 3)} / ${value(perplexity.bits_per_byte, 3)}`,
    },
  ];
}

function parityFigures({ data }: CommandOutput): Figure[] {
  const d = data as {
    meditodCommit: string | null;
    tasks: Array<{ task: string; identical: number; queries: number }>;
  };
  return d.tasks.map((t) => ({
    name: `${t.task} requests identical to \`prompt_gen.py\`'s (MediTOD ${d.meditodCommit?.slice(0, 7) ?? "checkout"})`,
    value: `${t.identical} of ${t.queries}`,
  }));
}

function parityCommand(options: PlanOptions): readonly string[] {
  const repo = options.meditodRepo ? ["--meditod-repo", options.meditodRepo] : [];
  return [
    "npx",
    "tsx",
    "bench/official-prompt-parity.ts",
    ...repo,
    ...(options.python ? ["--python", options.python] : []),
    "--json",
  ];
}

/** The score measurements: exact figures, the same on any machine. */
export const SCORE_MEASUREMENTS: readonly Measurement[] = [
  {
    name: "test-split",
    title: "MediTOD test split, embedded engine",
    note: "The public sample's test split is one dialogue (407); the paper's figures are on the full 18-dialogue test set, with an LLM judge for non-medical attributes, where these use exact match. The figures are read from `runs/default/results.json`, which the command writes.",
    command: () => ["npm", "run", "--silent", "bench"],
    json: false,
    read: () => JSON.parse(readFileSync(join(DEFAULT_RUN_DIR, "results.json"), "utf8")) as unknown,
    figures: ({ data }) => meditodFigures(data),
  },
  {
    name: "valid-split",
    title: "MediTOD valid split, embedded engine (tuned on this split)",
    note: "Dialogue 317: the lexicon, the history plan and the wording choices were shaped while looking at it, so these figures are tuned, not estimates.",
    command: () => [
      "npx",
      "anamnesis",
      "bench",
      "--suite",
      "meditod",
      "--split",
      "valid",
      "--out",
      "runs/measurements-valid",
      "--restart",
      "--json",
    ],
    json: true,
    figures: ({ data }) => meditodFigures(data),
  },
  {
    name: "leave-one-out",
    title: "Leave one dialogue out (the test split never read)",
    note: "Each non-test dialogue is scored by an engine built from the others, as `anamnesis bench --split valid` scores. RES0001 (`data/meditod-dev/`) is the honest column: nothing was shaped on it; 115 and 317 shaped the lexicon and the plan.",
    command: () => ["npx", "tsx", "bench/leave-one-out.ts", "--json"],
    json: true,
    figures: leaveOneOutFigures,
  },
  {
    name: "self-play",
    title: "Self-play on the case library: the embedded doctor and the scripted patients",
    note: "Each library case's patient speaks the case's hand-written lay script (a parent for the children, a relative for the elderly), and the expected diagnoses and red flags are the cases' own, judged by hand: none of it is read from the engine's lexicon or rules. Coverage is the OSCE checklist over the doctor's questions; fact recall is the share of each case's facts the patient revealed.",
    command: (options) => [
      "npx",
      "anamnesis",
      "simulate",
      "--cases",
      ...pick(options, ["library"], ["uti,croup-child"]),
      "--json",
    ],
    json: true,
    figures: selfPlayFigures,
  },
  {
    name: "self-play-profile",
    title: "Self-play on the case library, every patient answering in the engine's words",
    note: "The same cases, expected answers and scoring, but each patient answers from its CMAS profile in our lexicon's lay terms (`--patient profile`): read beside the section above, the difference is what the lay scripts' words cost the doctor.",
    command: (options) => [
      "npx",
      "anamnesis",
      "simulate",
      "--cases",
      ...pick(options, ["library"], ["uti,croup-child"]),
      "--patient",
      "profile",
      "--json",
    ],
    json: true,
    figures: selfPlayFigures,
  },
  {
    name: "self-play-meditod",
    title: "Self-play on the bundled MediTOD train and valid dialogues",
    note: "MediTOD cases have no lay script: their profile patient answers, the expected diagnosis is their doctor's, and the red flags are those our rules find in their profiles.",
    command: () => ["npx", "anamnesis", "simulate", "--cases", "meditod", "--json"],
    json: true,
    figures: selfPlayFigures,
  },
  {
    name: "note-suites",
    title: "Clinical-note suites on the bundled MTS-Dialog, embedded engine",
    note: "The bundled original MTS-Dialog (valid split), not lm-eval's har1 mirror: not comparable with lm-eval's numbers.",
    command: () => [
      "npx",
      "anamnesis",
      "bench",
      "--suite",
      "mts-dialog",
      "mts-dialog-perplexity",
      "--out",
      "runs/measurements-notes",
      "--restart",
      "--json",
    ],
    json: true,
    figures: noteSuiteFigures,
  },
  {
    name: "official-prompt-parity",
    title: "`--protocol official` against the official `prompt_gen.py`",
    note: "The checkout's `prompt_gen.py` runs with the embedding model replaced by a toy vector of each text's characters, and our requests are built with the same vectors; every message list of the test split is compared. Needs a MediTOD checkout (`--meditod-repo DIR` or MEDITOD_REPO) and a Python with numpy.",
    command: parityCommand,
    json: true,
    optional: true,
    figures: parityFigures,
  },
];

export { pick };
