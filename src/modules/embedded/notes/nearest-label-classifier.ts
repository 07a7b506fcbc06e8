import type { NoteDocument } from "../../../data/note-dataset.ts";
import { Bm25Index } from "../../../retrieval/bm25.ts";
import type {
  CallOptions,
  ClassifyRequest,
  ClassifyResult,
  TextClassifier,
} from "../../../language/module-interfaces.ts";

/**
 * The embedded engine's offline classifier for MEDIQA-Chat 2023 task A: the section header of the
 * training dialogue most similar to the input (BM25 over the training dialogues, as the nearest-note
 * writer finds its note); with no shared term, the most common training header. Built from the
 * training rows only, and never from the row it is asked about (a training row's own dialogue is
 * skipped when the training split itself is evaluated).
 */
export class NearestLabelClassifier implements TextClassifier {
  readonly id = "embedded:nearest-label";
  private readonly index: Bm25Index;
  private readonly majority: string | undefined;

  /** `training`: documents with their label in `header`; `heldOut`: evaluated inputs that are training rows too. */
  constructor(
    private readonly training: readonly NoteDocument[],
    private readonly heldOut: ReadonlySet<string> = new Set(),
  ) {
    this.index = new Bm25Index(training.map((document) => document.input));
    const counts = new Map<string, number>();
    for (const { header } of training) if (header !== undefined) counts.set(header, (counts.get(header) ?? 0) + 1);
    // The most common header; the first in training order among equals.
    this.majority = [...counts].reduce<[string, number] | undefined>(
      (best, entry) => (!best || entry[1] > best[1] ? entry : best),
      undefined,
    )?.[0];
  }

  async classify(request: ClassifyRequest, _options: CallOptions = {}): Promise<ClassifyResult> {
    const started = performance.now();
    const exclude = this.heldOut.has(request.input)
      ? (index: number) => this.training[index]!.input === request.input
      : undefined;
    const [hit] = this.index.search(request.input, 1, exclude);
    const source = hit ? this.training[hit.index] : undefined;
    const label = source?.header ?? this.majority ?? null;
    return {
      label: label !== null && request.labels.includes(label) ? label : null,
      latencyMs: performance.now() - started,
      exemplars: source ? [source.id] : [],
    };
  }
}
