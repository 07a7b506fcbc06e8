import { readFile } from "node:fs/promises";
import { bundledPath } from "../foundation/package-paths.ts";
import { decodeInt8Rows, encodeInt8Rows } from "./int8-rows-file.ts";

/**
 * The red flags' learned signal: a multinomial logistic regression over a patient's turn, trained on
 * the development parts of `data/red-flag-corpus/` (each statement that must fire a flag is an example
 * of that flag, each near-miss an example of none) and on ordinary patients' lines of the bundled
 * training dialogues (examples of none, so that everyday talk stays quiet). Where the lay-word rules
 * need a wording they were written for, the model reads the words, word pairs and the static encoder's
 * sentence vector together, so a new way of telling the same emergency still scores high. Made by
 * `data/red-flag-corpus/train-model.ts` (`./red-flag-model-training.ts`); its threshold is chosen by
 * `bench/red-flags-learned.ts` on development parts left out of training.
 */

/** The bundled model file. */
export const RED_FLAG_MODEL_FILE = bundledPath("data", "red-flag-corpus", "red-flag-model.bin");

/** The first bytes of a model file. */
const MAGIC = "RFLM";

/** What a model file's JSON header says. */
export interface RedFlagModelHeader {
  /** Names the model (a digest of its numbers). */
  readonly model: string;
  /** The classes: `none` first, then each flag's id. */
  readonly classes: readonly string[];
  /** The sparse features, in the order of the weight rows after the dense ones. */
  readonly features: readonly string[];
  /** The width of the static encoder's sentence vector read as dense features (0: none). */
  readonly denseDims: number;
  /** What a dense feature is multiplied by (the unit sentence vector's coordinates are small). */
  readonly denseScale: number;
  /** The encoder whose vectors the dense rows were trained on (its model name). */
  readonly encoder: string;
  /** A flag fires when its probability is at least this. */
  readonly threshold: number;
  /** How the threshold was chosen, and on what. */
  readonly chosenBy: string;
  /** A digest of the training examples (statements and background lines): a test says when it no longer matches. */
  readonly trainingDigest: string;
}

/** A trained model's numbers: for each row (bias, dense dims, then sparse features), one weight per class. */
export interface RedFlagModelWeights {
  readonly header: RedFlagModelHeader;
  readonly weights: Float32Array;
}

/** Words that negate the few words after them ("no numbness", "didn't fade"): read as negated features. */
const NEGATORS = new Set([
  "no",
  "not",
  "never",
  "without",
  "nothing",
  "none",
  "nor",
  "neither",
  "didnt",
  "doesnt",
  "dont",
  "isnt",
  "wasnt",
  "havent",
  "hasnt",
  "hadnt",
  "cant",
  "cannot",
  "wont",
  "arent",
  "werent",
]);

/** How many words after a negator it reaches. */
const NEGATION_REACH = 3;

/**
 * The tokens of a turn: lower-case words and numbers, apostrophes dropped ("don't" and "dont" alike),
 * and the clause breaks that end a negation's reach.
 * @example "Didn't fade, Mum says!" → didnt, fade, ",", mum, says, "!"
 */
const TOKEN = /[a-z0-9]+|[.,;:!?]/g;

/** A clause break: it ends a negation's reach. */
const CLAUSE_BREAK = /^[.,;:!?]$/;

/** A turn's words, each negated one marked (`not_` before it), clause breaks and "but" ending the reach. */
export function markedWords(text: string): string[] {
  const words: string[] = [];
  let reach = 0;
  for (const token of text
    .toLowerCase()
    .replace(/['’‘`]/g, "")
    .match(TOKEN) ?? []) {
    if (CLAUSE_BREAK.test(token) || token === "but") {
      reach = 0;
      if (token === "but") words.push(token);
    } else if (NEGATORS.has(token)) {
      reach = NEGATION_REACH;
      words.push(token);
    } else {
      words.push(reach > 0 ? `not_${token}` : token);
      reach = Math.max(0, reach - 1);
    }
  }
  return words;
}

/**
 * How many letters of a longer word are read as its stem: the words of one root often share them
 * ("breathing", "breathless"; "collapsed", "collapsing"; "suicidal", "suicide"; "unconscious",
 * "unconsious"), so a form or misspelling the training lacks still counts. Compared under
 * cross-validation (`bench/red-flags-learned.ts`) with none, four, five and character four-grams: six
 * caught the most statements left out for fewer false alarms.
 */
const STEM_LETTERS = 6;

/** A marked word's stem feature (`s:`), negation kept: `not_breathing` → `s:not_breath`; none for short words. */
function stemFeature(word: string): string | null {
  const negated = word.startsWith("not_");
  const bare = negated ? word.slice("not_".length) : word;
  return bare.length > STEM_LETTERS ? `s:${negated ? "not_" : ""}${bare.slice(0, STEM_LETTERS)}` : null;
}

/**
 * A turn's sparse features, each once: its marked words (`w:`), pairs of neighbouring words (`b:`) and
 * the stems of its longer words (`s:`).
 */
export function sparseFeatures(text: string): string[] {
  const words = markedWords(text);
  const features = new Set(words.map((word) => `w:${word}`));
  for (let index = 1; index < words.length; index++) features.add(`b:${words[index - 1]}_${words[index]}`);
  for (const word of words) {
    const stem = stemFeature(word);
    if (stem !== null) features.add(stem);
  }
  return [...features];
}

/** A vector scaled to length 1 (a zero vector stays zero). */
export function unitVector(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const length = Math.sqrt(squares);
  return length === 0 ? vector : vector.map((value) => value / length);
}

/** A turn as the model reads it: its sparse features' rows, and its unit sentence vector. */
export interface ModelInput {
  readonly rows: readonly number[];
  readonly dense: Float32Array;
}

/** Each class's score (the logits) of an input under some weights, into `out`. */
export function classScores(
  weights: Float32Array,
  header: Pick<RedFlagModelHeader, "classes" | "denseDims" | "denseScale">,
  input: ModelInput,
  out: Float32Array,
): void {
  const classes = header.classes.length;
  for (let k = 0; k < classes; k++) out[k] = weights[k]!;
  for (let dim = 0; dim < header.denseDims; dim++) {
    const value = input.dense[dim]! * header.denseScale;
    if (value === 0) continue;
    const row = (1 + dim) * classes;
    for (let k = 0; k < classes; k++) out[k]! += weights[row + k]! * value;
  }
  for (const feature of input.rows) {
    const row = feature * classes;
    for (let k = 0; k < classes; k++) out[k]! += weights[row + k]!;
  }
}

/** Scores turned into probabilities (softmax), in place. */
export function softmaxInPlace(scores: Float32Array): void {
  let top = -Infinity;
  for (const score of scores) top = Math.max(top, score);
  let sum = 0;
  for (let k = 0; k < scores.length; k++) sum += scores[k] = Math.exp(scores[k]! - top);
  for (let k = 0; k < scores.length; k++) scores[k]! /= sum;
}

/** The row of the first sparse feature: after the bias row and the dense rows. */
export function firstSparseRow(header: Pick<RedFlagModelHeader, "denseDims">): number {
  return 1 + header.denseDims;
}

/**
 * A model file's bytes (`./int8-rows-file.ts`): `RFLM`, the header, each row's scale, then each row's
 * weights (int8, one per class), each row scaled by its largest weight.
 */
export function encodeRedFlagModel(model: RedFlagModelWeights): Buffer {
  const classes = model.header.classes.length;
  const rows = model.weights.length / classes;
  const scales = new Float32Array(rows);
  const quantised = new Int8Array(rows * classes);
  for (let row = 0; row < rows; row++) {
    let largest = 0;
    for (let k = 0; k < classes; k++) largest = Math.max(largest, Math.abs(model.weights[row * classes + k]!));
    const scale = largest / 127;
    scales[row] = scale;
    for (let k = 0; k < classes; k++)
      quantised[row * classes + k] = scale === 0 ? 0 : Math.round(model.weights[row * classes + k]! / scale);
  }
  return encodeInt8Rows(MAGIC, model.header, scales, quantised);
}

/** A model from a model file's bytes ({@link encodeRedFlagModel}); throws when they are not one. */
export function decodeRedFlagModel(bytes: Buffer): RedFlagModelWeights {
  const { header, values } = decodeInt8Rows<RedFlagModelHeader>(bytes, MAGIC, "red-flag model file", (file) => ({
    rows: firstSparseRow(file) + file.features.length,
    width: file.classes.length,
  }));
  return { header, weights: values };
}

/** Reads a model file (default the bundled one). */
export async function readRedFlagModel(file: string = RED_FLAG_MODEL_FILE): Promise<RedFlagModelWeights> {
  return decodeRedFlagModel(await readFile(file));
}
