import {
  classScores,
  firstSparseRow,
  readRedFlagModel,
  RED_FLAG_MODEL_FILE,
  softmaxInPlace,
  sparseFeatures,
  unitVector,
  type ModelInput,
  type RedFlagModelWeights,
} from "./red-flag-model.ts";
import type { TurnReader } from "./red-flags-semantic.ts";
import { loadStaticEncoder, type StaticSentenceEncoder } from "./static-sentence-encoder.ts";

/**
 * The learned red-flag signal at chat time: the bundled model (`./red-flag-model.ts`) reads a patient
 * turn, and the runs of two and three turns that end with it (a feature told across turns: "he's
 * feverish" … "and there's a rash" … "it doesn't fade under the glass"), and names each flag whose
 * probability reaches the model's threshold. Synchronous once loaded: the static encoder encodes a
 * turn in microseconds on the calling thread.
 */

/** A flag the learned model fired on a text, with its probability. */
export interface LearnedMatch {
  readonly flag: string;
  readonly text: string;
  readonly probability: number;
}

/** The text the encoder reads: lower case, apostrophes dropped, as in training. */
export function modelText(text: string): string {
  return text.toLowerCase().replace(/['’‘`]/g, "");
}

/** A text's unit sentence vector under the static encoder, as the model reads it. */
export function denseFeatures(encoder: Pick<StaticSentenceEncoder, "encodeOne">, text: string): Float32Array {
  return unitVector(encoder.encodeOne(modelText(text)));
}

/** Longest run of consecutive patient turns read together. */
export const LONGEST_RUN = 3;

/** The texts read for the last of some turns: it alone, and the runs of two and three turns ending with it. */
export function runsEndingWithLast(turns: readonly string[]): string[] {
  return Array.from({ length: Math.min(LONGEST_RUN, turns.length) }, (_, extra) =>
    turns.slice(turns.length - 1 - extra).join(" "),
  );
}

/** The learned signal over a model and the static encoder. */
export class LearnedRedFlags implements TurnReader {
  private readonly rowOf: Map<string, number>;

  constructor(
    readonly model: RedFlagModelWeights,
    private readonly encoder: Pick<StaticSentenceEncoder, "encodeOne" | "model">,
  ) {
    if (encoder.model !== model.header.encoder)
      throw new Error(`the red-flag model was trained on ${model.header.encoder}, not ${encoder.model}`);
    const first = firstSparseRow(model.header);
    this.rowOf = new Map(model.header.features.map((feature, index) => [feature, first + index]));
  }

  /** The model's name (a digest of its numbers). */
  get name(): string {
    return this.model.header.model;
  }

  /** The probability the model gives the flag of each class (and `none`) for a text. */
  probabilities(text: string): Map<string, number> {
    const input: ModelInput = {
      rows: sparseFeatures(text).flatMap((feature) => this.rowOf.get(feature) ?? []),
      dense: denseFeatures(this.encoder, text),
    };
    const scores = new Float32Array(this.model.header.classes.length);
    classScores(this.model.weights, this.model.header, input, scores);
    softmaxInPlace(scores);
    return new Map(this.model.header.classes.map((name, index) => [name, scores[index]!]));
  }

  /** The flags a text fires: each flag whose probability is at least `threshold` (default the model's). */
  matches(text: string, threshold: number = this.model.header.threshold): LearnedMatch[] {
    return [...this.probabilities(text)]
      .filter(([name, probability]) => name !== "none" && probability >= threshold)
      .map(([flag, probability]) => ({ flag, text, probability }));
  }

  /** The flags the last of some turns fires, read alone and with the turns before it ({@link runsEndingWithLast}). */
  matchesOfLastTurn(turns: readonly string[], threshold?: number): LearnedMatch[] {
    const best = new Map<string, LearnedMatch>();
    for (const text of runsEndingWithLast(turns))
      for (const match of this.matches(text, threshold))
        if (match.probability > (best.get(match.flag)?.probability ?? -1)) best.set(match.flag, match);
    return [...best.values()];
  }

  /**
   * Each flag the model knows (not `none`), with its highest probability over the last turn read alone
   * and with the turns before it: the model's second opinion on the rules ({@link matchesOfLastTurn}
   * names only the flags over a threshold).
   */
  highestOfLastTurn(turns: readonly string[]): Map<string, number> {
    const highest = new Map<string, number>();
    for (const text of runsEndingWithLast(turns))
      for (const [flag, probability] of this.probabilities(text))
        if (flag !== "none") highest.set(flag, Math.max(highest.get(flag) ?? 0, probability));
    return highest;
  }
}

/** Loads the bundled model (or `file`) with the static encoder (or `loadEncoder`'s). */
export async function loadLearnedRedFlags(
  file: string = RED_FLAG_MODEL_FILE,
  loadEncoder: () => Promise<StaticSentenceEncoder> = () => loadStaticEncoder(),
): Promise<LearnedRedFlags> {
  const [model, encoder] = await Promise.all([readRedFlagModel(file), loadEncoder()]);
  return new LearnedRedFlags(model, encoder);
}
