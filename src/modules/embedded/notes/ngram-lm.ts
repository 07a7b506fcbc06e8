/**
 * A byte-level n-gram language model with interpolated Kneser-Ney smoothing (Chen & Goodman 1998, one
 * absolute discount per order, D = n1 / (n1 + 2·n2) from the numbers of n-grams seen once and twice, or
 * 0.5 where none is seen once), for scoring a text's log-likelihood offline.
 *
 * Bytes rather than words, so that every UTF-8 string — unknown words, numbers, odd spacing — gets a
 * proper probability and byte-level figures mean what they say. Each text is padded on the left with
 * order − 1 start symbols; as in lm-eval's `loglikelihood_rolling`, every byte is predicted from what
 * precedes it and no end-of-text is scored.
 *
 * For order k with context h (the last k − 1 symbols) and byte w:
 *   p_k(w | h) = max(c_k(h w) − D_k, 0) / c_k(h •) + D_k · N1+(h •) / c_k(h •) · p_{k−1}(w | h′)
 * where h′ drops the first symbol of h, c_n is the raw count at the highest order, c_k for k < n the
 * continuation count (how many distinct symbols precede the k-gram), N1+(h •) the number of distinct
 * bytes seen after h, and p_0 is uniform over the 256 bytes. An unseen context (c_k(h •) = 0) passes
 * straight to p_{k−1}. Every p_k sums to 1 over the 256 bytes, and no byte has probability 0.
 */

const BYTE_VALUES = 256;
const START = String.fromCharCode(256);

export interface NgramLmOptions {
  /** n: bytes of context + 1. Default 7. */
  readonly order?: number;
}

interface OrderStats {
  /** Count of each k-gram (raw at the highest order, continuation counts below). */
  readonly counts: Map<string, number>;
  /** c_k(h •) per context. */
  readonly totals: Map<string, number>;
  /** N1+(h •) per context. */
  readonly distinct: Map<string, number>;
  readonly discount: number;
}

function symbols(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) out += String.fromCharCode(byte);
  return out;
}

export class KneserNeyByteLm {
  readonly order: number;
  /** Index k − 1 holds order k. */
  private readonly stats: OrderStats[];

  constructor(texts: readonly string[], options: NgramLmOptions = {}) {
    const order = options.order ?? 7;
    if (!Number.isInteger(order) || order < 1) throw new RangeError(`order must be a positive integer (got ${order})`);
    this.order = order;
    const pad = START.repeat(order - 1);
    const raw = new Map<string, number>();
    for (const text of texts) {
      const padded = pad + symbols(text);
      for (let end = order; end <= padded.length; end++) {
        const gram = padded.slice(end - order, end);
        raw.set(gram, (raw.get(gram) ?? 0) + 1);
      }
    }
    const counts: Array<Map<string, number>> = [raw];
    // Continuation counts: each (k+1)-gram type adds one to the k-gram it ends with.
    for (let k = order - 1; k >= 1; k--) {
      const higher = counts[0]!;
      const lower = new Map<string, number>();
      for (const gram of higher.keys()) {
        const suffix = gram.slice(1);
        lower.set(suffix, (lower.get(suffix) ?? 0) + 1);
      }
      counts.unshift(lower);
    }
    this.stats = counts.map((gramCounts) => {
      const totals = new Map<string, number>();
      const distinct = new Map<string, number>();
      let n1 = 0;
      let n2 = 0;
      for (const [gram, count] of gramCounts) {
        const context = gram.slice(0, -1);
        totals.set(context, (totals.get(context) ?? 0) + count);
        distinct.set(context, (distinct.get(context) ?? 0) + 1);
        if (count === 1) n1 += 1;
        else if (count === 2) n2 += 1;
      }
      // Without singletons the estimate would be 0 and unseen bytes impossible; 0.5 keeps every byte possible.
      return { counts: gramCounts, totals, distinct, discount: n1 > 0 ? n1 / (n1 + 2 * n2) : 0.5 };
    });
  }

  /** D_k, for k = 1 … order. */
  discount(k: number): number {
    return this.stats[k - 1]!.discount;
  }

  /** p_k(byte | context), the context given as symbols (bytes as char codes 0–255, the start symbol 256). */
  private probability(k: number, context: string, byte: string): number {
    if (k === 0) return 1 / BYTE_VALUES;
    const { counts, totals, distinct, discount } = this.stats[k - 1]!;
    const h = context.slice(context.length - (k - 1));
    const lower = this.probability(k - 1, context, byte);
    const total = totals.get(h);
    if (total === undefined) return lower;
    const count = counts.get(h + byte) ?? 0;
    return Math.max(count - discount, 0) / total + ((discount * distinct.get(h)!) / total) * lower;
  }

  /**
   * p(byte | preceding text): `preceding` is the text before the byte (the start symbols are added),
   * `byte` a value 0–255.
   */
  byteProbability(preceding: string, byte: number): number {
    const padded = START.repeat(this.order - 1) + symbols(preceding);
    return this.probability(this.order, padded.slice(padded.length - (this.order - 1)), String.fromCharCode(byte));
  }

  /** Natural-log likelihood of the text's UTF-8 bytes, each predicted from the bytes before it. */
  logLikelihood(text: string): number {
    const padded = START.repeat(this.order - 1) + symbols(text);
    let sum = 0;
    for (let i = this.order - 1; i < padded.length; i++) {
      sum += Math.log(this.probability(this.order, padded.slice(i - (this.order - 1), i), padded[i]!));
    }
    return sum;
  }
}
