import type { ChatBackend, ChatMessage } from "../../backends/spec.ts";
import { AnamnesisError } from "../../foundation/errors.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import { splitIds } from "../../data/meditod.ts";
import type { CallOptions } from "../../language/module-interfaces.ts";
import { rawDialogue, rawDialogues, type RawDialogues } from "./official-dataset.ts";
import { officialTurn, OFFICIAL_HISTORY_SIZE, taskSpeaker, type OfficialTurn } from "./official-turns.ts";
import type { OfficialTask } from "./meditod-checkout.ts";

/**
 * The official prompt of one task (`dynamic.py`): `[system: task description]`, the 5 pool turns whose
 * last-turn text is nearest the query's as (user, assistant) pairs, then the query. The pool is every
 * turn of the task in the training dialogues (`uid == 0` and a dialogue's last turn included). No token
 * budget is applied.
 *
 * Retrieval: the embeddings backend embeds the last-turn texts; vectors are L2-normalised and scored by
 * inner product; the order is numpy's `argsort(scores)[::-1]`: descending, and between exactly equal
 * scores the later pool turn first (a stable ascending sort, reversed).
 */

/** Pool texts per embeddings request: servers such as TEI refuse larger batches by default. */
export const POOL_BATCH_SIZE = 32;

export interface PoolTurn extends OfficialTurn {
  /** `dialogue:uid`. */
  readonly id: string;
}

export interface OfficialPrompt {
  readonly messages: ChatMessage[];
  /** Ids of the exemplars, best first. */
  readonly exemplars: string[];
}

/** `v / ‖v‖₂` in float64 (a zero vector stays zero). */
export function l2Normalise(vector: readonly number[]): Float64Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  return Float64Array.from(vector, (value) => (norm > 0 ? value / norm : 0));
}

/**
 * numpy's `argsort(scores)[::-1][:k]`: indexes by descending score; equal scores, higher index first.
 * One pass keeping the best `k` in order, rather than sorting every score of MediTOD's full training
 * pool (about 8,400 turns per task) for each query when only 5 are kept (bench/official-retrieval.ts).
 */
export function topByDescendingArgsort(scores: ArrayLike<number>, k: number): number[] {
  const best: number[] = [];
  for (let index = 0; index < scores.length; index += 1) {
    const score = scores[index]!;
    // Scanning upwards, an equal score beats every kept one: the later index comes first.
    if (best.length === k && (k === 0 || score < scores[best[k - 1]!]!)) continue;
    let slot = best.length;
    while (slot > 0 && score >= scores[best[slot - 1]!]!) slot -= 1;
    best.splice(slot, 0, index);
    if (best.length > k) best.pop();
  }
  return best;
}

/** The pool's unit vectors as one row-major matrix, so that a query is scored in one tight loop. */
interface PoolMatrix {
  readonly values: Float64Array;
  readonly dimensions: number;
  readonly rows: number;
}

function poolMatrix(vectors: readonly Float64Array[]): PoolMatrix {
  const dimensions = vectors[0]?.length ?? 0;
  const values = new Float64Array(vectors.length * dimensions);
  vectors.forEach((vector, row) => values.set(vector, row * dimensions));
  return { values, dimensions, rows: vectors.length };
}

/** The inner product of the query with every pool row (summed in the same order as a plain dot product). */
function innerProducts(matrix: PoolMatrix, query: Float64Array): Float64Array {
  const { values, dimensions, rows } = matrix;
  const scores = new Float64Array(rows);
  for (let row = 0, offset = 0; row < rows; row += 1, offset += dimensions) {
    let sum = 0;
    for (let column = 0; column < dimensions; column += 1) sum += values[offset + column]! * query[column]!;
    scores[row] = sum;
  }
  return scores;
}

export class OfficialPrompter {
  readonly pool: PoolTurn[];
  private readonly dialogues: RawDialogues;
  private vectors: Promise<PoolMatrix> | undefined;
  /** The embedding length, fixed by the first answer. */
  private dimensions: number | undefined;

  constructor(
    readonly task: OfficialTask,
    private readonly systemMessage: string,
    dataset: MeditodDataset,
    private readonly embeddings: ChatBackend,
    private readonly options: {
      readonly exemplarSplit?: Split;
      readonly exemplars?: number;
      readonly historySize?: number;
    } = {},
  ) {
    this.dialogues = rawDialogues(dataset);
    this.pool = splitIds(dataset, options.exemplarSplit ?? "train").flatMap((id) =>
      rawDialogue(this.dialogues, id).flatMap((utterance, uid, utterances) =>
        utterance.speaker === taskSpeaker(task)
          ? [{ id: `${id}:${uid}`, ...officialTurn(task, id, utterances, uid, this.historySize) }]
          : [],
      ),
    );
  }

  private get historySize(): number {
    return this.options.historySize ?? OFFICIAL_HISTORY_SIZE;
  }

  private async embed(texts: readonly string[], options: CallOptions): Promise<Float64Array[]> {
    const { embeddings } = await this.embeddings.embed!(texts, options.signal ? { signal: options.signal } : {});
    // A vector missing or of another length would silently shift or corrupt every ranking.
    const dimensions = this.dimensions ?? embeddings[0]?.length;
    const bad =
      embeddings.length !== texts.length
        ? `${embeddings.length} vectors for ${texts.length} texts`
        : embeddings.findIndex((vector) => vector.length === 0 || vector.length !== dimensions) >= 0
          ? `vectors of ${[...new Set(embeddings.map((vector) => vector.length))].join(" and ")} dimensions (expected ${dimensions})`
          : undefined;
    if (bad) throw new AnamnesisError("BACKEND_ERROR", `${this.embeddings.id} returned ${bad}`);
    this.dimensions = dimensions;
    return embeddings.map(l2Normalise);
  }

  /** The pool's vectors, embedded once per run in batches (each batch is cached like a response). */
  private poolVectors(): Promise<PoolMatrix> {
    if (!this.vectors) {
      const pending = (async () => {
        const vectors: Float64Array[] = [];
        for (let start = 0; start < this.pool.length; start += POOL_BATCH_SIZE) {
          vectors.push(
            ...(await this.embed(
              this.pool.slice(start, start + POOL_BATCH_SIZE).map((turn) => turn.lastTurnText),
              {},
            )),
          );
        }
        return poolMatrix(vectors);
      })();
      // A failed pool embedding is tried again by the next query rather than remembered.
      pending.catch(() => {
        if (this.vectors === pending) this.vectors = undefined;
      });
      this.vectors = pending;
    }
    return this.vectors;
  }

  /** The query turn of a dataset dialogue and the request `dynamic.py` sends for it. */
  async build(
    dialogueId: string,
    uid: number,
    options: CallOptions = {},
  ): Promise<OfficialPrompt & { turn: OfficialTurn }> {
    const turn = officialTurn(this.task, dialogueId, rawDialogue(this.dialogues, dialogueId), uid, this.historySize);
    const [matrix, [query]] = await Promise.all([this.poolVectors(), this.embed([turn.lastTurnText], options)]);
    const scores = innerProducts(matrix, query!);
    const chosen = topByDescendingArgsort(scores, this.options.exemplars ?? 5).map((index) => this.pool[index]!);
    const messages: ChatMessage[] = [
      { role: "system", content: this.systemMessage },
      ...chosen.flatMap((exemplar): ChatMessage[] => [
        { role: "user", content: exemplar.user },
        { role: "assistant", content: exemplar.answer },
      ]),
      { role: "user", content: turn.user },
    ];
    return { messages, exemplars: chosen.map((exemplar) => exemplar.id), turn };
  }
}
