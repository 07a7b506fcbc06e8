/**
 * The examples the red flags' learned model is trained on (`train-model.ts`) and cross-validated on
 * (`bench/red-flags-learned.ts`): every development part of this corpus (never the held-back test parts)
 * and, as examples of no flag, the patients' lines of the bundled training dialogues (MTS-Dialog's and
 * ACI-Bench's train splits, MediTOD's train split: never a valid or test split, which measure how often
 * the model fires on ordinary talk).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { statementText } from "../../src/clinical/red-flags-encoder.ts";
import type { TrainingExample, TrainingSettings } from "../../src/clinical/red-flag-model-training.ts";
import { loadAciBench } from "../../src/data/aci-bench.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";

/** The held-back test parts: never trained on. */
export const HELD_BACK_PARTS: readonly string[] = ["test-v2", "test-v3", "test-v4", "test-v5", "test-v6", "test-v7", "test-v8", "test-v9", "test-v10"];

/**
 * A statement's weight in the loss when it must fire a flag (1), and when it must fire none: near-misses
 * and ordinary lines weigh more, since a false alarm in an ordinary chat costs trust in every later one.
 */
const FIRES_WEIGHT = 1;
const NONE_WEIGHT = 3;

/** A corpus statement as an example, with the part it comes from and its turns. */
export interface CorpusExample extends TrainingExample {
  readonly part: string;
  readonly turns: readonly string[];
  /** The flag whose list it is in (its label when it must fire; a near-miss's `label` is `none`). */
  readonly listedUnder: string;
}

type Statement = string | string[];
interface CorpusPart {
  readonly flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
}

/** The development parts of the corpus, by name, in a fixed order. */
export function developmentParts(): string[] {
  return readdirSync(bundledPath("data", "red-flag-corpus"))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.replace(/\.json$/, ""))
    .filter((name) => !HELD_BACK_PARTS.includes(name))
    .sort();
}

/** The statements of some corpus parts as examples. */
export function corpusExamples(parts: readonly string[]): CorpusExample[] {
  return parts.flatMap((part) => {
    const file = JSON.parse(
      readFileSync(bundledPath("data", "red-flag-corpus", `${part}.json`), "utf8"),
    ) as CorpusPart;
    return Object.entries(file.flags).flatMap(([flag, { fires, nearMisses }]) => [
      ...fires.map((statement) => example(part, flag, statement, true)),
      ...nearMisses.map((statement) => example(part, flag, statement, false)),
    ]);
  });
}

function example(part: string, listedUnder: string, statement: Statement, mustFire: boolean): CorpusExample {
  return {
    part,
    listedUnder,
    turns: typeof statement === "string" ? [statement] : statement,
    text: statementText(statement),
    label: mustFire ? listedUnder : "none",
    weight: mustFire ? FIRES_WEIGHT : NONE_WEIGHT,
  };
}

/**
 * The model's classes: `none`, then each flag with statements in the corpus, in the rules file's order
 * (a flag the corpus has no statements of is left to the rules: the model could only learn never to name it).
 */
export function modelClasses(flagIds: readonly string[], examples: readonly TrainingExample[]): string[] {
  const labelled = new Set(examples.map((example) => example.label));
  return ["none", ...flagIds.filter((id) => labelled.has(id))];
}

/** A dialogue line's speaker tag ("Patient:", "[patient]"). */
const SPEAKER = /^\s*(?:\[[a-z_]+\]|(?:doctor|patient|guest_family|guest_clinician)\s*:)\s*/i;
/** A doctor's line ("Doctor: …", "[doctor] …"): not a patient's. */
const DOCTOR_LINE = /^\s*(?:\[doctor\]|doctor\s*:)/i;

/** The lines of transcripts that are not the doctor's, without their speaker tags. */
function patientLinesOf(transcripts: Iterable<string>, into: Set<string>): void {
  for (const transcript of transcripts)
    for (const line of transcript.split("\n")) if (!DOCTOR_LINE.test(line)) into.add(line.replace(SPEAKER, "").trim());
}

/** The patients' lines of the bundled dialogues of a split (MTS-Dialog, ACI-Bench, MediTOD), two words or more. */
export function patientLines(split: "train" | "valid"): string[] {
  const lines = new Set<string>();
  patientLinesOf((loadMtsDialog().splits[split] ?? []).map((document) => document.input), lines);
  patientLinesOf(loadAciBench().splits[split].map((document) => document.input), lines);
  const meditod = loadMeditod();
  for (const id of meditod.splits[split] ?? [])
    for (const utterance of meditod.dialogues.get(id)?.utterances ?? [])
      if (utterance.speaker !== "doctor") lines.add(utterance.text.trim());
  return [...lines].filter((line) => line.split(/\s+/).length >= 2 && line.length < 600);
}

/** The training split's patients' lines as examples of no flag. */
export function backgroundExamples(): TrainingExample[] {
  return patientLines("train").map((text) => ({ text, label: "none", weight: NONE_WEIGHT }));
}

/** A digest of the training examples and settings: the model file records it, and a test compares. */
export function trainingDigest(examples: readonly TrainingExample[], settings: TrainingSettings): string {
  return createHash("sha256")
    .update(JSON.stringify([settings, examples.map(({ text, label, weight }) => [text, label, weight])]))
    .digest("hex")
    .slice(0, 16);
}
