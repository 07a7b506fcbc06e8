/**
 * Okapi BM25 over typed arrays. Chosen over the npm libraries after measuring them on 17,000 synthetic
 * dialogue histories (shared ecosystem notes, Q3): this layout indexed in 0.3 s and answered long
 * queries in 2.3 ms (p95 3.5 ms) with the best hit@5 (0.90); wink-bm25 took 82–100 ms, minisearch
 * and lunr 280–390 ms, and fuse.js 24 s per long query.
 */

const STOPWORDS = new Set(
  "a about above after again all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves uh um uhm okay ok yeah oh".split(
    " ",
  ),
);

/** Lower-cased alphanumeric words without stopwords: the terms BM25 indexes. */
export function bm25Terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !STOPWORDS.has(word));
}

export interface Bm25Options {
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation. */
  b?: number;
}

export interface Bm25Hit {
  /** Index of the document in the order it was given. */
  index: number;
  score: number;
}

/** An immutable BM25 index over a list of texts. */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly postingStart: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingFrequencies: Float32Array;
  private readonly idf: Float64Array;
  private readonly lengthNorm: Float64Array;
  private readonly k1: number;
  readonly size: number;

  constructor(texts: readonly string[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    this.size = texts.length;

    const documents = texts.map((text) => {
      const counts = new Map<number, number>();
      const terms = bm25Terms(text);
      for (const term of terms) {
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.termIds.size;
          this.termIds.set(term, id);
        }
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return { counts, length: terms.length };
    });

    const documentFrequency = new Int32Array(this.termIds.size);
    for (const { counts } of documents) for (const id of counts.keys()) documentFrequency[id]! += 1;
    this.postingStart = new Int32Array(this.termIds.size + 1);
    for (let id = 0; id < this.termIds.size; id += 1)
      this.postingStart[id + 1] = this.postingStart[id]! + documentFrequency[id]!;
    const fill = this.postingStart.slice(0, this.termIds.size);
    const total = this.postingStart[this.termIds.size]!;
    this.postingDocs = new Int32Array(total);
    this.postingFrequencies = new Float32Array(total);
    documents.forEach(({ counts }, documentIndex) => {
      for (const [id, count] of counts) {
        const slot = fill[id]!;
        this.postingDocs[slot] = documentIndex;
        this.postingFrequencies[slot] = count;
        fill[id] = slot + 1;
      }
    });

    this.idf = new Float64Array(this.termIds.size);
    for (let id = 0; id < this.termIds.size; id += 1) {
      const frequency = documentFrequency[id]!;
      this.idf[id] = Math.log(1 + (this.size - frequency + 0.5) / (frequency + 0.5));
    }
    const averageLength = documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, this.size);
    this.lengthNorm = new Float64Array(this.size);
    documents.forEach(({ length }, index) => {
      this.lengthNorm[index] = this.k1 * (1 - b + (b * length) / Math.max(averageLength, 1e-9));
    });
  }

  /**
   * The `k` best documents for a query, best first; ties go to the earlier document, so results are
   * deterministic. `exclude` filters candidates (e.g. the query's own dialogue).
   */
  search(query: string, k: number, exclude?: (index: number) => boolean): Bm25Hit[] {
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
    for (const term of new Set(bm25Terms(query))) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const idf = this.idf[id]!;
      for (let slot = this.postingStart[id]!; slot < this.postingStart[id + 1]!; slot += 1) {
        const document = this.postingDocs[slot]!;
        const frequency = this.postingFrequencies[slot]!;
        if (scores[document] === 0) touched.push(document);
        scores[document]! += (idf * frequency * (this.k1 + 1)) / (frequency + this.lengthNorm[document]!);
      }
    }
    const hits = touched.filter((index) => !exclude?.(index)).map((index) => ({ index, score: scores[index]! }));
    hits.sort((left, right) => right.score - left.score || left.index - right.index);
    return hits.slice(0, k);
  }
}
