import type { ChatBackend } from "../backends/spec.ts";
import { Bm25Index } from "./bm25.ts";

/**
 * Few-shot exemplar retrieval: the training examples whose context is most similar to the current
 * one. The paper embeds the last turn with bge-large and takes the top-5 by inner product; by default
 * we rank with BM25 (offline, no model), and {@link DenseRetriever} does the paper's dense search
 * through any backend that offers embeddings.
 */

/** A retrievable training example. */
export interface RetrievalDocument {
  /** `dialogue:turn`. */
  readonly id: string;
  readonly dialogueId: string;
  /** The text similarity is computed on (the paper: the last two utterances). */
  readonly text: string;
}

export interface ExemplarRetriever {
  /** `lexical:bm25` or `dense:<backend id>`. */
  readonly id: string;
  /** Indexes of the `k` most similar documents, best first, never from `excludeDialogueId`. */
  retrieve(query: string, k: number, excludeDialogueId?: string): Promise<number[]>;
}

/** Ranks documents by BM25; when fewer than k share a word with the query, the rest follow in corpus order. */
export class LexicalRetriever implements ExemplarRetriever {
  readonly id = "lexical:bm25";
  private readonly index: Bm25Index;

  constructor(private readonly documents: readonly RetrievalDocument[]) {
    this.index = new Bm25Index(documents.map((document) => document.text));
  }

  async retrieve(query: string, k: number, excludeDialogueId?: string): Promise<number[]> {
    const excluded = (index: number) => this.documents[index]!.dialogueId === excludeDialogueId;
    const ranked = this.index.search(query, k, excluded).map((hit) => hit.index);
    for (let index = 0; ranked.length < k && index < this.documents.length; index += 1) {
      if (!excluded(index) && !ranked.includes(index)) ranked.push(index);
    }
    return ranked;
  }
}

/** Dense retrieval: cosine similarity of embeddings from a backend with the `embeddings` capability. */
export class DenseRetriever implements ExemplarRetriever {
  readonly id: string;
  private vectors: Promise<Float64Array[]> | undefined;

  constructor(
    private readonly documents: readonly RetrievalDocument[],
    private readonly backend: ChatBackend,
  ) {
    if (!backend.embed || !backend.capabilities.embeddings)
      throw new Error(`backend ${backend.id} does not offer embeddings`);
    this.id = `dense:${backend.id}`;
  }

  private async embed(texts: readonly string[]): Promise<Float64Array[]> {
    const { embeddings } = await this.backend.embed!(texts);
    return embeddings.map((vector) => {
      const norm = Math.hypot(...vector) || 1;
      return Float64Array.from(vector, (value) => value / norm);
    });
  }

  async retrieve(query: string, k: number, excludeDialogueId?: string): Promise<number[]> {
    this.vectors ??= this.embed(this.documents.map((document) => document.text));
    const [vectors, [queryVector]] = await Promise.all([this.vectors, this.embed([query])]);
    const scored: Array<{ index: number; score: number }> = [];
    vectors.forEach((vector, index) => {
      if (this.documents[index]!.dialogueId === excludeDialogueId) return;
      let score = 0;
      for (let dimension = 0; dimension < vector.length; dimension += 1)
        score += vector[dimension]! * queryVector![dimension]!;
      scored.push({ index, score });
    });
    scored.sort((left, right) => right.score - left.score || left.index - right.index);
    return scored.slice(0, k).map((hit) => hit.index);
  }
}
