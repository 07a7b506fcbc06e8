import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { endianness } from "node:os";
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
 * why in {@link SemanticRedFlags.status}, and the rules run alone. The statements' vectors are read
 * from a folder of vectors made ahead of time when it has them for this model and these statements;
 * else they are encoded once and kept on disk under the cache directory, keyed by the model and the
 * statements' hash. Each sentence
 * is encoded once (its vector and its matches kept in memory, a sentence being encoded is not sent
 * again). Encoding is asynchronous ({@link SemanticRedFlags.prepare}, which waits at most `waitMs`:
 * a sentence encoded later is matched when it arrives); matching is synchronous over prepared
 * sentences, so the dialogue machine's guards can read it.
 */

/** An offline sentence encoder. */
export interface SentenceEncoder {
  /** Names the model and its version (a cache key). */
  readonly model: string;
  encode(sentences: readonly string[]): Promise<Float32Array[]>;
}

/**
 * A model that reads whole turns (`./red-flags-learned.ts`): the flags it fires on the last of some
 * patient turns, read alone and with the turns before it.
 */
export interface TurnReader {
  /** Names the model. */
  readonly name: string;
  matchesOfLastTurn(
    turns: readonly string[],
  ): ReadonlyArray<{ readonly flag: string; readonly text: string; readonly probability: number }>;
  /** Each flag it knows, with its highest probability over the last turn read alone and with the turns before it. */
  highestOfLastTurn(turns: readonly string[]): ReadonlyMap<string, number>;
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
  /** Whether sentences are compared with the corpus's statements (false: the learned model alone). */
  readonly statements?: boolean;
  /** The learned model's name, once loaded (null: none). */
  readonly learnedModel?: string | null;
}

/**
 * A flag a sentence fired: with its nearest statement and their similarity; or, fired by the learned
 * model over a turn (and the turns before it), with no statement and the model's probability.
 */
export interface SemanticMatch {
  readonly flag: string;
  readonly sentence: string;
  readonly statement: string | null;
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
  /**
   * A read-only folder of statement vectors made ahead of time ({@link premadeVectorsFile}), looked in
   * before the cache: none there for this model and these statements, they are encoded.
   */
  readonly premadeVectorsDir?: string | null;
  /**
   * How long {@link SemanticRedFlags.prepare} waits for the encoder (loading included) before the turn
   * goes on with the rules alone (default {@link DEFAULT_WAIT_MS}); the encoding goes on, and its
   * sentences are matched at the next screening.
   */
  readonly waitMs?: number;
  /** Loads the learned model read beside the statements (`./red-flags-learned.ts`); none when absent. */
  readonly loadLearned?: () => Promise<TurnReader>;
}

/** How long a turn waits for its sentences' encoding by default: far above one sentence's cost, short of a person giving up. */
const DEFAULT_WAIT_MS = 3_000;

/** Encoded once at load when the statements' vectors come from disk, so that no patient turn pays the model's first call. */
const WARM_UP_SENTENCE = "a sentence that warms the encoder up";

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

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

/**
 * The flags a sentence's scores fire under thresholds: its nearest statement of the flag at least
 * `similarity` alike, and ahead of the nearest near-miss by `margin`.
 */
export function flagsOver(scores: SentenceScores, thresholds: SemanticThresholds): string[] {
  return [...scores.flags]
    .filter(
      ([, best]) => best.similarity >= thresholds.similarity && best.similarity - scores.nearMiss >= thresholds.margin,
    )
    .map(([flag]) => flag);
}

/** Whether a promise settles within `ms` milliseconds (it goes on either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
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

/**
 * The name both files of a model's vectors of some statements take, before their extension: the
 * cache's and the one made ahead of time.
 */
function vectorsFileStem(model: string, hash: string): string {
  return `${model.replace(/[^\w.-]+/g, "_")}-${hash}`;
}

/**
 * The file of statement vectors made ahead of time for a model and a statements' hash: the vectors one
 * after the other, each as little-endian 32-bit floats, exactly as the encoder gave them.
 */
export function premadeVectorsFile(dir: string, model: string, hash: string): string {
  return join(dir, `${vectorsFileStem(model, hash)}.f32`);
}

/** The vectors of `count` statements from a file made ahead of time, or null when there is none or it does not fit. */
function readPremadeVectors(file: string, count: number): Float32Array[] | null {
  if (endianness() !== "LE" || count === 0) return null;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const width = bytes.byteLength / 4 / count;
  if (!Number.isInteger(width) || width === 0) return null;
  // Copied into a buffer of its own: a Float32Array needs an offset that is a multiple of 4.
  const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return Array.from({ length: count }, (_, row) => floats.subarray(row * width, (row + 1) * width));
}

/** The hash that keys a model's vectors of some statements (the cache's and the premade files' names). */
export function statementsHash(model: string, texts: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([model, texts]))
    .digest("hex")
    .slice(0, 16);
}

/** The semantic signal over a set of statements. */
export class SemanticRedFlags {
  private encoder: SentenceEncoder | null = null;
  private learned: TurnReader | null = null;
  private anchorVectors: Float32Array[] = [];
  /** Each statement's vector's length, computed once: a sentence's cosines are then one dot product each. */
  private anchorNorms: number[] = [];
  private loading: Promise<boolean> | null = null;
  private failure: string | null = null;
  private readonly sentenceVectors = new Map<string, Float32Array>();
  /** Sentences being encoded, each with its encoding: asked again meanwhile, it is waited for, not sent again. */
  private readonly encoding = new Map<string, Promise<void>>();
  /** The flags each encoded sentence fires under the thresholds (scored once). */
  private readonly matchesOf = new Map<string, SemanticMatch[]>();
  /** Sentences whose encoding failed: left to the rules. */
  private readonly unencodable = new Set<string>();
  private readonly anchorTexts: string[];
  /** Why the last encoding of sentences failed (null when none has). */
  lastEncodingError: string | null = null;

  constructor(private readonly options: SemanticRedFlagsOptions) {
    this.anchorTexts = options.anchors.map((anchor) => comparedSentences(anchor.text).join(" ") || anchor.text);
  }

  /** The statements as compared: each one's sentences of at least two words, the order of the anchors. */
  get statementTexts(): readonly string[] {
    return this.anchorTexts;
  }

  get thresholds(): SemanticThresholds {
    return this.options.thresholds;
  }

  status(): SemanticStatus {
    const parts = {
      statements: this.options.anchors.length > 0,
      learnedModel: this.learned?.name ?? null,
    };
    if (this.failure !== null) return { state: "failed", model: null, reason: this.failure, ...parts };
    if (this.encoder) return { state: "on", model: this.encoder.model, reason: null, ...parts };
    return {
      state: "loading",
      model: null,
      reason: this.loading ? "the sentence encoder is loading" : "not loaded yet",
      ...parts,
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
    const [encoder, learned] = await Promise.all([this.options.loadEncoder(), this.options.loadLearned?.() ?? null]);
    this.learned = learned;
    const texts = this.anchorTexts;
    const hash = statementsHash(encoder.model, texts);
    const file = this.options.cacheDir
      ? join(this.options.cacheDir, "red-flag-statements", `${vectorsFileStem(encoder.model, hash)}.json`)
      : null;
    const premade = this.options.premadeVectorsDir
      ? premadeVectorsFile(this.options.premadeVectorsDir, encoder.model, hash)
      : null;
    let vectors =
      (premade ? readPremadeVectors(premade, texts.length) : null) ??
      (file ? readCachedVectors(file, encoder.model, texts) : null);
    if (!vectors) {
      vectors = await encoder.encode(texts);
      if (file) writeCachedVectors(file, encoder.model, texts, vectors);
    } else {
      // The model's first call prepares its kernels (seconds on a busy machine): paid here, at load, not
      // by the first patient sentence, whose turn waits for its encoding.
      await encoder.encode([WARM_UP_SENTENCE]);
    }
    this.anchorVectors = vectors;
    this.anchorNorms = vectors.map((vector) => Math.sqrt(dot(vector, vector)));
    this.encoder = encoder;
  }

  /**
   * Encodes the sentences of patient turns not encoded before, so {@link matchPrepared} can read them;
   * waits at most `waitMs` (the encoding goes on after). Never rejects.
   */
  async prepare(texts: readonly string[]): Promise<void> {
    await settlesWithin(this.encodeAll(texts), this.options.waitMs ?? DEFAULT_WAIT_MS);
  }

  /** Encodes what is not encoded yet of some turns' sentences, and waits for those already being encoded. */
  private async encodeAll(texts: readonly string[]): Promise<void> {
    // With no statements (the learned model alone) there is nothing to compare a sentence with: the
    // model encodes the turns it reads itself.
    if (!(await this.warmUp()) || !this.encoder || this.options.anchors.length === 0) return;
    const sentences = [...new Set(texts.flatMap(comparedSentences))];
    const fresh = sentences.filter((sentence) => !this.sentenceVectors.has(sentence) && !this.encoding.has(sentence));
    if (fresh.length > 0) {
      const job = this.encodeFresh(this.encoder, fresh);
      for (const sentence of fresh) this.encoding.set(sentence, job);
    }
    await Promise.all(sentences.flatMap((sentence) => this.encoding.get(sentence) ?? []));
  }

  private async encodeFresh(encoder: SentenceEncoder, fresh: readonly string[]): Promise<void> {
    try {
      const vectors = await encoder.encode(fresh);
      if (this.sentenceVectors.size + fresh.length > MAX_REMEMBERED_SENTENCES) {
        this.sentenceVectors.clear();
        this.matchesOf.clear();
        this.unencodable.clear();
      }
      fresh.forEach((sentence, index) => this.sentenceVectors.set(sentence, vectors[index]!));
    } catch (error) {
      // One failed encoding leaves these sentences to the rules; the signal stays on for the next turn.
      this.lastEncodingError = errorText(error);
      if (this.unencodable.size + fresh.length > MAX_REMEMBERED_SENTENCES) this.unencodable.clear();
      for (const sentence of fresh) this.unencodable.add(sentence);
    } finally {
      for (const sentence of fresh) this.encoding.delete(sentence);
    }
  }

  /** How an encoded sentence compares with the statements; statements equal to `leaveOut` are skipped (leave-one-out). */
  scores(vector: Float32Array, leaveOut?: string): SentenceScores {
    const flags = new Map<string, { similarity: number; statement: string }>();
    let nearMiss = -1;
    const norm = Math.sqrt(dot(vector, vector));
    this.options.anchors.forEach((anchor, index) => {
      if (leaveOut !== undefined && anchor.text === leaveOut) return;
      const norms = norm * this.anchorNorms[index]!;
      // The cosine ({@link cosine}), the statement's length computed once.
      const similarity = norms === 0 ? 0 : dot(vector, this.anchorVectors[index]!) / norms;
      if (anchor.flag === null) nearMiss = Math.max(nearMiss, similarity);
      else if (similarity > (flags.get(anchor.flag)?.similarity ?? -1))
        flags.set(anchor.flag, { similarity, statement: anchor.text });
    });
    return { flags, nearMiss };
  }

  /** The flags a sentence's scores fire under the thresholds ({@link flagsOver}). */
  firedBy(scores: SentenceScores, thresholds: SemanticThresholds = this.options.thresholds): string[] {
    return flagsOver(scores, thresholds);
  }

  /** The scores of each prepared sentence of a turn (none when the signal is off); `leaveOut` as in {@link scores}. */
  scoresOf(text: string, leaveOut?: string): Array<{ sentence: string; scores: SentenceScores }> {
    if (!this.encoder) return [];
    return comparedSentences(text).flatMap((sentence) => {
      const vector = this.sentenceVectors.get(sentence);
      return vector ? [{ sentence, scores: this.scores(vector, leaveOut) }] : [];
    });
  }

  /**
   * The flags a turn's sentences fire, or null while some of them are not encoded yet (the encoder
   * loading, their encoding not back, or not asked for yet). A sentence whose encoding failed is left
   * to the rules, and so is every sentence when the signal failed.
   */
  matchPrepared(text: string): SemanticMatch[] | null {
    if (this.failure !== null || this.options.anchors.length === 0) return [];
    if (!this.encoder) return null;
    const matches: SemanticMatch[] = [];
    for (const sentence of comparedSentences(text)) {
      const known = this.matchesOf.get(sentence) ?? this.matchSentence(sentence);
      if (known === null && !this.unencodable.has(sentence)) return null;
      matches.push(...(known ?? []));
    }
    return matches;
  }

  /**
   * The flags the learned model fires on the last of some patient turns, read alone and with the turns
   * before it; null while the signal is loading, none when it failed or has no learned model.
   */
  learnedMatches(turns: readonly string[]): SemanticMatch[] | null {
    if (this.failure !== null) return [];
    if (!this.encoder) return null;
    if (!this.learned) return [];
    return this.learned.matchesOfLastTurn(turns).map(({ flag, text, probability }) => ({
      flag,
      sentence: text,
      statement: null,
      similarity: probability,
    }));
  }

  /**
   * The learned model's highest probability of each flag it knows over the last of some patient turns,
   * read alone and with the turns before it ({@link TurnReader.highestOfLastTurn}); null while the
   * signal is loading, empty when it failed or has no learned model.
   */
  learnedHighest(turns: readonly string[]): ReadonlyMap<string, number> | null {
    if (this.failure !== null) return new Map();
    if (!this.encoder) return null;
    return this.learned?.highestOfLastTurn(turns) ?? new Map();
  }

  /** The flags an encoded sentence fires (kept), or null when it is not encoded. */
  private matchSentence(sentence: string): SemanticMatch[] | null {
    const vector = this.sentenceVectors.get(sentence);
    if (!vector) return null;
    const scores = this.scores(vector);
    const matches = this.firedBy(scores).map((flag) => {
      const best = scores.flags.get(flag)!;
      return { flag, sentence, statement: best.statement, similarity: best.similarity };
    });
    this.matchesOf.set(sentence, matches);
    return matches;
  }
}
