/**
 * The measurements of the whole-visit note suites for `bench/measurements.ts`: ACI-Bench's shipped
 * baseline outputs scored as the official script (exact figures, the same on any machine), the time
 * `anamnesis score aci-bench` takes on a test split's 40 notes, and MEDIQA-Chat task A's embedded
 * baseline on MTS-Dialog's valid and test1 splits.
 */
import type { Figure } from "../test-support/measurements-page.ts";
import type { BaselineFigures } from "./aci-bench-baselines.ts";
import { fixed, percent, pick, timing, type CommandOutput, type Measurement, type Timing } from "./measurement-plan.ts";

/** A ROUGE mean as the paper prints it: x100, two decimals. */
export const rougeCell = (value: number): string => fixed(value * 100, 2);

function baselineFigures({ data }: CommandOutput): Figure[] {
  const { baselines } = data as { baselines: BaselineFigures[] };
  return baselines.map((row) => ({
    name: `${row.split}, ${row.model} (\`${row.file}\`, ${row.notes} notes)`,
    value: `ROUGE-1 ${rougeCell(row.rouge1)} · ROUGE-2 ${rougeCell(row.rouge2)} · ROUGE-L (Lsum) ${rougeCell(row.rougeLsum)} · sentence ROUGE-L ${rougeCell(row.rougeL)}`,
  }));
}

/** What `bench/aci-bench-speed.ts --json` prints. */
export interface AciSpeed extends Timing {
  readonly file: string;
  readonly notes: number;
  readonly limitSeconds: number;
  readonly within: boolean;
}

function speedFigures({ data }: CommandOutput): Figure[] {
  const d = data as AciSpeed;
  return [
    { name: `\`anamnesis score aci-bench\`, ${d.notes} notes of \`${d.file}\`, whole process`, value: timing(d) },
    { name: `within the ${d.limitSeconds} s limit (median wall)`, value: d.within ? "yes" : "no" },
  ];
}

/** `anamnesis bench --suite mediqa-chat-a` on a split, embedded engine. */
function taskAMeasurement(split: string): Measurement {
  return {
    name: `mediqa-chat-a-${split}`,
    title: `MEDIQA-Chat 2023 task A (section header), MTS-Dialog ${split}, embedded engine`,
    note: "The embedded engine names the header of the training dialogue nearest by BM25; the floor names the most common training header every time. Nothing was tuned on this split.",
    command: () => [
      "npx",
      "anamnesis",
      "bench",
      "--suite",
      "mediqa-chat-a",
      "--split",
      split,
      "--out",
      `runs/measurements-mediqa-chat-a-${split}`,
      "--restart",
      "--json",
    ],
    json: true,
    figures: ({ data }) => {
      const scores = (data as { suites: Record<string, TaskAFigures> }).suites["mediqa-chat-a"]!;
      return [
        {
          name: "accuracy (correct / dialogues)",
          value: `${percent(scores.accuracy)} (${scores.correct} / ${scores.dialogues})`,
        },
        { name: `floor: always ${scores.majority_floor.header}`, value: percent(scores.majority_floor.accuracy) },
      ];
    },
  };
}

interface TaskAFigures {
  readonly dialogues: number;
  readonly correct: number;
  readonly accuracy: number;
  readonly majority_floor: { readonly header: string; readonly accuracy: number };
}

/** The divisions of evaluate_fullnote.py, in its order. */
const DIVISIONS = ["subjective", "objective_exam", "objective_results", "assessment_and_plan"] as const;

type RougeMeans = { readonly rouge1: number; readonly rouge2: number; readonly rougeLsum: number };

/** A cohort's means as the paper prints them. */
const rougeLine = (means: RougeMeans): string =>
  `ROUGE-1 ${rougeCell(means.rouge1)} · ROUGE-2 ${rougeCell(means.rouge2)} · ROUGE-L (Lsum) ${rougeCell(means.rougeLsum)}`;

/**
 * `anamnesis bench --suite aci-bench --backend embedded` on a split: the visit note from the tracked
 * state (its rules were written looking at train and valid only; test1 is held out).
 */
function embeddedVisitNoteMeasurement(split: "valid" | "test1"): Measurement {
  return {
    name: `aci-bench-embedded-${split}`,
    title: `ACI-Bench ${split}: the embedded engine's visit note from the tracked state`,
    note: `The chat's NLU reads each patient answer in the context of the doctor's question into the CMAS state; the history sections come from the clinical-note writer, examination, results, assessment and plan from the doctor's own statements. Its rules were shaped on train and valid${split === "test1" ? "; test1 was scored once, after the rules were final" : ""}. The run's report.md shows the shipped baselines and the copy-the-conversation floor on the same visits.`,
    command: () => [
      "npx",
      "anamnesis",
      "bench",
      "--suite",
      "aci-bench",
      "--split",
      split,
      "--backend",
      "embedded",
      "--out",
      `runs/measurements-aci-bench-embedded-${split}`,
      "--restart",
      "--json",
    ],
    json: true,
    figures: ({ data }) => {
      const scores = (data as { suites: Record<string, { notes: number; rouge: Record<string, RougeMeans> }> }).suites[
        "aci-bench"
      ]!;
      return [
        { name: `full note (${scores.notes} notes)`, value: rougeLine(scores.rouge.ALL!) },
        ...DIVISIONS.map((division) => ({
          name: `division ${division}`,
          value: rougeLine(scores.rouge[`division-${division}`]!),
        })),
      ];
    },
  };
}

/** The nearest-training-note floor on a split (`bench/aci-bench-nearest-note.ts`), beside the visit note. */
function nearestNoteMeasurement(split: "valid" | "test1"): Measurement {
  return {
    name: `aci-bench-nearest-note-${split}`,
    title: `ACI-Bench ${split}: the nearest-training-note baseline (a floor for the visit note)`,
    note: "Each visit's note is the whole note of the training visit whose conversation is nearest by BM25, copied; nothing of the visit is written. It shows what a split's shared note templates give away.",
    command: () => ["npx", "tsx", "bench/aci-bench-nearest-note.ts", "--split", split, "--json"],
    json: true,
    figures: ({ data }) => {
      const { notes, rouge } = data as { notes: number; rouge: Record<string, RougeMeans> };
      return [
        { name: `full note (${notes} notes)`, value: rougeLine(rouge.ALL!) },
        ...DIVISIONS.map((division) => ({
          name: `division ${division}`,
          value: rougeLine(rouge[`division-${division}`]!),
        })),
      ];
    },
  };
}

/** The exact measurements: the same figures on any machine. */
export const NOTE_VISIT_SCORES: readonly Measurement[] = [
  {
    name: "aci-bench",
    title: "ACI-Bench: the shipped baseline outputs scored as evaluate_fullnote.py",
    note: "Each predictions CSV wyim/aci-bench ships, scored by `anamnesis score aci-bench --predictions FILE --split SPLIT` (one process per file). The paper's ROUGE-L is rougeLsum; `tests/metrics/aci-bench-scoring.test.ts` checks these against the paper's tables and the shipped results file.",
    command: () => ["npx", "tsx", "bench/aci-bench-baselines.ts", "--json"],
    json: true,
    figures: baselineFigures,
  },
  embeddedVisitNoteMeasurement("valid"),
  nearestNoteMeasurement("valid"),
  embeddedVisitNoteMeasurement("test1"),
  nearestNoteMeasurement("test1"),
  taskAMeasurement("valid"),
  taskAMeasurement("test1"),
];

/** The timing: scoring one test split's notes, whole process. */
export const NOTE_VISIT_TIMINGS: readonly Measurement[] = [
  {
    name: "aci-bench-speed",
    title: "ACI-Bench scoring speed, whole process",
    note: "The full note and its four divisions of 40 notes (200 ROUGE pairs), from Node's start to the printed JSON; one uncounted warm-up run first. The target is 1 s on 2 cores; on a busy machine the CPU seconds are the steadier figure.",
    command: (o) => ["npx", "tsx", "bench/aci-bench-speed.ts", ...pick(o, ["--runs", "11"], ["--runs", "1"]), "--json"],
    json: true,
    figures: speedFigures,
  },
];
