import type { LoglikelihoodResult, LoglikelihoodScorer } from "../../../backends/spec.ts";
import type { NoteDocument } from "../../../data/note-dataset.ts";
import { Bm25Index } from "../../../retrieval/bm25.ts";
import type {
  CallOptions,
  NoteRequest,
  NoteModule,
  NoteResult,
  TextClassifier,
} from "../../../language/module-interfaces.ts";
import { KneserNeyByteLm } from "./ngram-lm.ts";
import { NearestLabelClassifier } from "./nearest-label-classifier.ts";

/**
 * The embedded engine's offline baselines for the clinical-note suites, built only from the training
 * rows of the dataset:
 * - writing: a nearest-neighbour baseline — the note of the training document whose input is most
 *   similar to the input (BM25 over the training inputs); with no shared term, the most common
 *   training note. On MTS-Dialog valid it scores above extracting the dialogue's own sentences.
 * - log-likelihood: a byte-level 8-gram language model with interpolated Kneser-Ney smoothing
 *   (ngram-lm.ts) trained on the training targets.
 *
 * Neither ever uses the document it is asked about. Where the evaluated documents are training rows
 * too (lm-eval scores every row of MedText and of the har1 mirror), the writer skips training rows whose
 * input is the evaluated input, and the language model scores an evaluated target with the model built
 * without its tenth of the training targets (ten folds by a hash of the text, so duplicates share a
 * fold). Evaluated documents outside the training rows see every training row.
 */

export const NOTE_LM_ORDER = 8;
const FOLDS = 10;

/** FNV-1a over UTF-16 code units: a stable fold for a text. */
function foldOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % FOLDS;
}

export class NearestNoteWriter implements NoteModule {
  readonly id = "embedded:nearest-note";
  private readonly index: Bm25Index;
  private readonly fallback: NoteDocument | undefined;

  /** `heldOut`: inputs of evaluated documents that are training rows too; their own rows are skipped. */
  constructor(
    private readonly training: readonly NoteDocument[],
    private readonly heldOut: ReadonlySet<string> = new Set(),
  ) {
    this.index = new Bm25Index(training.map((document) => document.input));
    const frequency = new Map<string, number>();
    for (const document of training) frequency.set(document.target, (frequency.get(document.target) ?? 0) + 1);
    // The most common note; the first one in training order among equals.
    this.fallback = training.reduce<NoteDocument | undefined>(
      (best, document) => (!best || frequency.get(document.target)! > frequency.get(best.target)! ? document : best),
      undefined,
    );
  }

  async write(input: NoteRequest, _options: CallOptions = {}): Promise<NoteResult> {
    const started = performance.now();
    const exclude = this.heldOut.has(input.input)
      ? (index: number) => this.training[index]!.input === input.input
      : undefined;
    const [hit] = this.index.search(input.input, 1, exclude);
    const source = hit ? this.training[hit.index] : this.fallback;
    return { text: source?.target ?? "", latencyMs: performance.now() - started, exemplars: source ? [source.id] : [] };
  }
}

export class EmbeddedLoglikelihood implements LoglikelihoodScorer {
  readonly id = `embedded:byte-${NOTE_LM_ORDER}gram-kneser-ney`;
  private full: KneserNeyByteLm | undefined;
  private readonly folds = new Map<number, KneserNeyByteLm>();

  /** `heldOut`: targets of evaluated documents that are training rows too. */
  constructor(
    private readonly targets: readonly string[],
    private readonly heldOut: ReadonlySet<string> = new Set(),
    private readonly order: number = NOTE_LM_ORDER,
  ) {}

  /** The model for `text`: built from every training target, or, for a held-out text, from the other folds. */
  modelFor(text: string): KneserNeyByteLm {
    if (!this.heldOut.has(text)) return (this.full ??= new KneserNeyByteLm(this.targets, { order: this.order }));
    const fold = foldOf(text);
    let model = this.folds.get(fold);
    if (!model) {
      model = new KneserNeyByteLm(
        this.targets.filter((target) => foldOf(target) !== fold),
        { order: this.order },
      );
      this.folds.set(fold, model);
    }
    return model;
  }

  async loglikelihoodRolling(text: string): Promise<LoglikelihoodResult> {
    const started = performance.now();
    const logLikelihood = this.modelFor(text).logLikelihood(text);
    return { logLikelihood, latencyMs: performance.now() - started, cached: false };
  }
}

export interface EmbeddedNoteEngine {
  readonly note: NoteModule;
  readonly likelihood: LoglikelihoodScorer;
  /** The nearest training document's label, when the training documents have labels (MTS-Dialog's section headers). */
  readonly classifier?: TextClassifier;
}

/** The baselines built from `training`, for predicting `evaluated` (which may overlap it). */
export function buildEmbeddedNoteEngine(
  training: readonly NoteDocument[],
  evaluated: readonly NoteDocument[],
): EmbeddedNoteEngine & { heldOut: number } {
  const trainingIds = new Set(training.map((document) => document.id));
  const overlap = evaluated.filter((document) => trainingIds.has(document.id));
  const heldOutInputs = new Set(overlap.map((document) => document.input));
  const labelled = training.length > 0 && training.every((document) => document.header !== undefined);
  return {
    note: new NearestNoteWriter(training, heldOutInputs),
    ...(labelled ? { classifier: new NearestLabelClassifier(training, heldOutInputs) } : {}),
    likelihood: new EmbeddedLoglikelihood(
      training.map((document) => document.target),
      new Set(overlap.map((document) => document.target)),
    ),
    heldOut: overlap.length,
  };
}
