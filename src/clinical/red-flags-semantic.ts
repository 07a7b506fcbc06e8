import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sentencesOf } from "./red-flag-signs.ts";

/**
 * The red flags' second, semantic signal: each patient sentence is encoded by an offline sentence
 * encoder and compared with statements that must fire each flag and near-misses that must not, so a
 * paraphrase the lay-word rules lack still fires. A flag fires on a sentence when its nearest statement
 * is at least `similarity` alike (cosine) and nearer than the nearest near-miss by `margin`; both
 * thresholds are chosen on the corpus's development part (`bench/red-flags.ts`).
 *
 * The encoder is loaded lazily (first use) and may be missing or fail: the signal is then off, says
 * why in {@link SemanticRedFlags.status}, and the rules run alone. The statements are encoded once and
 * kept on disk under the cache directory, keyed by the model and the statements' hash; sentence
 * vectors are kept in memory. Encoding is asynchronous ({@link SemanticRedFlags.prepare}); matching is
 * synchronous over prepared sentences, so the dialogue machine's guards can read it.
 */

/** An offline sentence encoder. */
export interface SentenceEncoder {
  /** Names the model and its version (a cache key). */
  readonly model: string;
  encode(sentences: readonly string[]): Promise<Float32Array[]>;
}

/** A statement the semantic signal compares with: one that must fire `flag`, or a near-miss (`flag: null`). */
export interface SemanticAnchor {
  readonly flag: string | null;
  readonly text: string;
}

/** When a sentence fires a flag: similarity to the flag's nearest statement, and lead over the nearest near-miss. */
export interface SemanticThresholds {
  readonly similarity: number;
  readonly margin: number;
}

/** Whether the semantic signal runs: `off` (not configured), `loading`, `on`, or `failed` (with why). */
export interface SemanticStatus {
  readonly state: "off" | "loading" | "on" | "failed";
  readonly model: string | null;
  readonly reason: string | null;
}

/** A flag a sentence fired, with its nearest statement. */
export interface SemanticMatch {
  readonly flag: string;
  readonly sentence: string;
  readonly statement: string;
  readonly similarity: number;
}

/** How a sentence compares with the statements: the nearest of each flag, and the nearest near-miss. */
export interface SentenceScores {
  readonly flags: ReadonlyMap<string, { readonly similarity: number; readonly statement: string }>;
  readonly nearMiss: number;
}

export interface SemanticRedFlagsOptions {
  readonly loadEncoder: () => Promise<SentenceEncoder>;
  readonly anchors: readonly SemanticAnchor[];
  readonly thresholds: SemanticThresholds;
  /** Where the statements' vectors are kept between runs; null keeps them in memory only. */
  readonly cacheDir: string | null;
}

/** Sentences shorter than this many words ("yes", "no thanks") are not compared: they carry no emergency alone. */
const MIN_WORDS = 2;
const MAX_REMEMBERED_SENTENCES = 5_000;

/** The cosine of two vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

/** The sentences of a turn the signal compares. */
function comparedSentences(text: string): string[] {
  return sentencesOf(text).filter((sentence) => sentence.split(" ").length >= MIN_WORDS);
}

/** The statements' vectors on disk: read if the model and statements match, else null. */
function readCachedVectors(file: string, model: string, texts: readonly string[]): Float32Array[] | null {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { model: string; texts: string[]; vectors: string[] };
    if (stored.model !== model || stored.texts.length !== texts.length) return null;
    if (stored.texts.some((text, index) => text !== texts[index])) return null;
    return stored.vectors.map((encoded) => new Float32Array(new Uint8Array(Buffer.from(encoded, "base64")).buffer));
  } catch {
    return null;
  }
}

function writeCachedVectors(file: string, model: string, texts: readonly string[], vectors: Float32Array[]): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    const encoded = vectors.map((vector) =>
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64"),
    );
    writeFileSync(`${file}.tmp`, JSON.stringify({ model, texts, vectors: encoded }));
    renameSync(`${file}.tmp`, file);
  } catch {
    // A cache that cannot be written costs a re-encoding next time, nothing else.
  }
}

/** The semantic signal over a set of statements. */
export class SemanticRedFlags {
  private encoder: SentenceEncoder | null = null;
  private anchorVectors: Float32Array[] = [];
  private loading: Promise<boolean> | null = null;
  private failure: string | null = null;
  private readonly sentenceVectors = new Map<string, Float32Array>();
  private readonly anchorTexts: string[];
  /** Why the last encoding of sentences failed (null when none has). */
  lastEncodingError: string | null = null;

  constructor(private readonly options: SemanticRedFlagsOptions) {
    this.anchorTexts = options.anchors.map((anchor) => comparedSentences(anchor.text).join(" ") || anchor.text);
  }

  get thresholds(): SemanticThresholds {
    return this.options.thresholds;
  }

  status(): SemanticStatus {
    if (this.failure !== null) return { state: "failed", model: null, reason: this.failure };
    if (this.encoder) return { state: "on", model: this.encoder.model, reason: null };
    return {
      state: "loading",
      model: null,
      reason: this.loading ? "the sentence encoder is loading" : "not loaded yet",
    };
  }

  /** Loads the encoder and the statements' vectors, once; resolves whether the signal is on. Never rejects. */
  warmUp(): Promise<boolean> {
    this.loading ??= this.load().then(
      () => true,
      (error: unknown) => {
        this.failure = `the sentence encoder failed to load: ${errorText(error)}`;
        return false;
      },
    );
    return this.loading;
  }

  private async load(): Promise<void> {
    const encoder = await this.options.loadEncoder();
    const texts = this.anchorTexts;
    const hash = createHash("sha256")
      .update(JSON.stringify([encoder.model, texts]))
      .digest("hex")
      .slice(0, 16);
    const file = this.options.cacheDir
      ? join(this.options.cacheDir, "red-flag-statements", `${encoder.model.replace(/[^\w.-]+/g, "_")}-${hash}.json`)
      : null;
    let vectors = file ? readCachedVectors(file, encoder.model, texts) : null;
    if (!vectors) {
      vectors = await encoder.encode(texts);
      if (file) writeCachedVectors(file, encoder.model, texts, vectors);
    }
    this.anchorVectors = vectors;
    this.encoder = encoder;
  }

  /** Encodes the sentences of patient turns not seen before, so {@link match} can read them. Never rejects. */
  async prepare(texts: readonly string[]): Promise<void> {
    if (!(await this.warmUp()) || !this.encoder) return;
    const fresh = [...new Set(texts.flatMap(comparedSentences))].filter((s) => !this.sentenceVectors.has(s));
    if (fresh.length === 0) return;
    try {
      const vectors = await this.encoder.encode(fresh);
      if (this.sentenceVectors.size + fresh.length > MAX_REMEMBERED_SENTENCES) this.sentenceVectors.clear();
      fresh.forEach((sentence, index) => this.sentenceVectors.set(sentence, vectors[index]!));
    } catch (error) {
      // One failed encoding leaves these sentences to the rules; the signal stays on for the next turn.
      this.lastEncodingError = errorText(error);
    }
  }

  /** How an encoded sentence compares with the statements; statements equal to `leaveOut` are skipped (leave-one-out). */
  scores(vector: Float32Array, leaveOut?: string): SentenceScores {
    const flags = new Map<string, { similarity: number; statement: string }>();
    let nearMiss = -1;
    this.options.anchors.forEach((anchor, index) => {
      if (leaveOut !== undefined && anchor.text === leaveOut) return;
      const similarity = cosine(vector, this.anchorVectors[index]!);
      if (anchor.flag === null) nearMiss = Math.max(nearMiss, similarity);
      else if (similarity > (flags.get(anchor.flag)?.similarity ?? -1))
        flags.set(anchor.flag, { similarity, statement: anchor.text });
    });
    return { flags, nearMiss };
  }

  /** The flags a sentence's scores fire under the thresholds. */
  firedBy(scores: SentenceScores, thresholds: SemanticThresholds = this.options.thresholds): string[] {
    return [...scores.flags]
      .filter(
        ([, best]) =>
          best.similarity >= thresholds.similarity && best.similarity - scores.nearMiss >= thresholds.margin,
      )
      .map(([flag]) => flag);
  }

  /** The scores of each prepared sentence of a turn (none when the signal is off); `leaveOut` as in {@link scores}. */
  scoresOf(text: string, leaveOut?: string): Array<{ sentence: string; scores: SentenceScores }> {
    if (!this.encoder) return [];
    return comparedSentences(text).flatMap((sentence) => {
      const vector = this.sentenceVectors.get(sentence);
      return vector ? [{ sentence, scores: this.scores(vector, leaveOut) }] : [];
    });
  }

  /** The flags the prepared sentences of a turn fire (sentences not prepared, or the signal off: none). */
  match(text: string): SemanticMatch[] {
    return this.scoresOf(text).flatMap(({ sentence, scores }) =>
      this.firedBy(scores).map((flag) => {
        const best = scores.flags.get(flag)!;
        return { flag, sentence, statement: best.statement, similarity: best.similarity };
      }),
    );
  }
}
