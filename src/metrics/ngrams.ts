/**
 * Integer n-gram statistics shared by the BLEU and ROUGE-N ports.
 *
 * All of them need the same quantity: for each order n, the number of hypothesis n-grams that also occur
 * in the reference(s), clipped per n-gram by the reference count (`Counter &` in nmt/HF,
 * `min(hyp, ref_max)` in sacrebleu and nltk, `min(target, prediction)` in rouge_score; with several
 * references the per-n-gram maximum over references). Tokens are mapped to dense integer ids once and
 * n-grams become exact numeric keys, counted in an open-addressing table (one reference) or by
 * sort-and-merge (several), which avoids building string-keyed Counters.
 */

/** Tokens of one hypothesis and its references as dense ids, plus the number of distinct tokens. */
export interface InternedTokens {
  hypothesis: Int32Array;
  references: Int32Array[];
  vocabularySize: number;
}

function toIds(tokens: readonly string[], vocabulary: Map<string, number>): Int32Array {
  const ids = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    let id = vocabulary.get(token);
    if (id === undefined) {
      id = vocabulary.size;
      vocabulary.set(token, id);
    }
    ids[i] = id;
  }
  return ids;
}

/** Maps token strings to dense ids (0, 1, 2, …) shared by a hypothesis and its references. */
export function internTokens(
  hypothesis: readonly string[],
  references: readonly (readonly string[])[],
): InternedTokens {
  const vocabulary = new Map<string, number>();
  const hyp = toIds(hypothesis, vocabulary);
  const refs = references.map((tokens) => toIds(tokens, vocabulary));
  return { hypothesis: hyp, references: refs, vocabularySize: vocabulary.size };
}

/** Number of n-grams of order `order` in a sequence of `length` tokens (never negative). */
export function ngramCount(length: number, order: number): number {
  return length >= order ? length - order + 1 : 0;
}

// Scratch buffers reused across calls (grown on demand) so the hot path allocates nothing per n-gram.
let hypKeys = new Float64Array(256);
let refKeys = new Float64Array(256);
let distinctKeys = new Float64Array(256);
let distinctCounts = new Int32Array(256);
let maxRefCounts = new Int32Array(256);

function ensureCapacity(n: number): void {
  if (hypKeys.length >= n) return;
  let size = hypKeys.length;
  while (size < n) size *= 2;
  hypKeys = new Float64Array(size);
  refKeys = new Float64Array(size);
  distinctKeys = new Float64Array(size);
  distinctCounts = new Int32Array(size);
  maxRefCounts = new Int32Array(size);
}

function ensureRefCapacity(n: number): void {
  if (refKeys.length >= n) return;
  let size = refKeys.length;
  while (size < n) size *= 2;
  refKeys = new Float64Array(size);
}

/** Writes the numeric keys of all n-grams of `order` into `out`; exact while base^order ≤ 2^53. */
function fillKeys(ids: Int32Array, order: number, base: number, out: Float64Array): number {
  const count = ngramCount(ids.length, order);
  for (let i = 0; i < count; i++) {
    let key = ids[i] as number;
    for (let k = 1; k < order; k++) key = key * base + (ids[i + k] as number);
    out[i] = key;
  }
  return count;
}

/**
 * Clipped n-gram matches for orders 1..maxOrder: for each order, the sum over distinct hypothesis n-grams
 * g of `min(count_hyp(g), max over references of count_ref(g))`.
 */
export function clippedNgramMatches(tokens: InternedTokens, maxOrder: number): number[] {
  const { hypothesis, references, vocabularySize } = tokens;
  const base = Math.max(vocabularySize, 1);
  const matches: number[] = [];
  for (let order = 1; order <= maxOrder; order++) {
    if (base ** order > Number.MAX_SAFE_INTEGER) {
      matches.push(clippedMatchesByString(hypothesis, references, order));
      continue;
    }
    matches.push(clippedMatchesByKey(hypothesis, references, order, base));
  }
  return matches;
}

// Open-addressing table for the single-reference case: reference n-gram keys with their remaining
// counts. `stamps` marks the slots used by the current call, so the table is never cleared.
let tableKeys = new Float64Array(1024);
let tableCounts = new Int32Array(1024);
let tableStamps = new Int32Array(1024);
let stamp = 0;

function hashSlot(key: number, mask: number): number {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b);
  h ^= h >>> 15;
  return h & mask;
}

/**
 * One reference: each hypothesis n-gram consumes one remaining occurrence of the same n-gram in the
 * reference, which totals min(hyp count, ref count) per n-gram without sorting.
 */
function clippedMatchesOneReference(
  hypothesis: Int32Array,
  reference: Int32Array,
  order: number,
  base: number,
): number {
  const hypCount = ngramCount(hypothesis.length, order);
  const refCount = ngramCount(reference.length, order);
  if (hypCount === 0 || refCount === 0) return 0;
  let size = 16;
  while (size < refCount * 2) size *= 2;
  if (tableKeys.length < size) {
    tableKeys = new Float64Array(size);
    tableCounts = new Int32Array(size);
    tableStamps = new Int32Array(size);
    stamp = 0;
  }
  if (stamp === 0x7fffffff) {
    tableStamps.fill(0);
    stamp = 0;
  }
  const current = ++stamp;
  const mask = size - 1;
  ensureCapacity(hypCount);
  ensureRefCapacity(refCount);
  fillKeys(reference, order, base, refKeys);
  fillKeys(hypothesis, order, base, hypKeys);
  for (let i = 0; i < refCount; i++) {
    const key = refKeys[i] as number;
    let slot = hashSlot(key, mask);
    while (tableStamps[slot] === current && tableKeys[slot] !== key) slot = (slot + 1) & mask;
    if (tableStamps[slot] === current) {
      tableCounts[slot] = (tableCounts[slot] as number) + 1;
    } else {
      tableStamps[slot] = current;
      tableKeys[slot] = key;
      tableCounts[slot] = 1;
    }
  }
  let clipped = 0;
  for (let i = 0; i < hypCount; i++) {
    const key = hypKeys[i] as number;
    let slot = hashSlot(key, mask);
    while (tableStamps[slot] === current && tableKeys[slot] !== key) slot = (slot + 1) & mask;
    if (tableStamps[slot] === current && (tableCounts[slot] as number) > 0) {
      tableCounts[slot] = (tableCounts[slot] as number) - 1;
      clipped++;
    }
  }
  return clipped;
}

function clippedMatchesByKey(
  hypothesis: Int32Array,
  references: readonly Int32Array[],
  order: number,
  base: number,
): number {
  if (references.length === 1) return clippedMatchesOneReference(hypothesis, references[0] as Int32Array, order, base);
  const hypCount = ngramCount(hypothesis.length, order);
  if (hypCount === 0) return 0;
  ensureCapacity(hypCount);
  fillKeys(hypothesis, order, base, hypKeys);
  const sortedHyp = hypKeys.subarray(0, hypCount).sort();

  // Run-length encode the sorted hypothesis keys.
  let distinct = 0;
  for (let i = 0; i < hypCount;) {
    const key = sortedHyp[i] as number;
    let j = i + 1;
    while (j < hypCount && sortedHyp[j] === key) j++;
    distinctKeys[distinct] = key;
    distinctCounts[distinct] = j - i;
    maxRefCounts[distinct] = 0;
    distinct++;
    i = j;
  }

  for (const reference of references) {
    const refCount = ngramCount(reference.length, order);
    if (refCount === 0) continue;
    ensureRefCapacity(refCount);
    fillKeys(reference, order, base, refKeys);
    const sortedRef = refKeys.subarray(0, refCount).sort();
    // Merge the two sorted sequences, keeping the largest reference count of each hypothesis n-gram.
    let r = 0;
    for (let d = 0; d < distinct && r < refCount; d++) {
      const key = distinctKeys[d] as number;
      while (r < refCount && (sortedRef[r] as number) < key) r++;
      let run = 0;
      while (r < refCount && sortedRef[r] === key) {
        run++;
        r++;
      }
      if (run > (maxRefCounts[d] as number)) maxRefCounts[d] = run;
    }
  }

  let clipped = 0;
  for (let d = 0; d < distinct; d++) clipped += Math.min(distinctCounts[d] as number, maxRefCounts[d] as number);
  return clipped;
}

/** Fallback for very large vocabularies, where numeric keys would lose precision. */
function clippedMatchesByString(hypothesis: Int32Array, references: readonly Int32Array[], order: number): number {
  const count = (ids: Int32Array): Map<string, number> => {
    const counts = new Map<string, number>();
    const n = ngramCount(ids.length, order);
    for (let i = 0; i < n; i++) {
      const key = Array.prototype.join.call(ids.subarray(i, i + order), ",");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const hypCounts = count(hypothesis);
  const refCounts = references.map(count);
  let clipped = 0;
  for (const [key, hypCount] of hypCounts) {
    let maxRef = 0;
    for (const counts of refCounts) maxRef = Math.max(maxRef, counts.get(key) ?? 0);
    clipped += Math.min(hypCount, maxRef);
  }
  return clipped;
}

/** What every BLEU variant needs from one segment: lengths and clipped matches per n-gram order. */
export interface SegmentStats {
  hypothesisLength: number;
  referenceLengths: number[];
  /** `matches[n - 1]`: clipped matches of order n. */
  matches: number[];
}

/** Segment statistics of a tokenised hypothesis against one or more tokenised references. */
export function segmentStats(
  hypothesis: readonly string[],
  references: readonly (readonly string[])[],
  maxOrder: number,
): SegmentStats {
  return {
    hypothesisLength: hypothesis.length,
    referenceLengths: references.map((r) => r.length),
    matches: clippedNgramMatches(internTokens(hypothesis, references), maxOrder),
  };
}

/**
 * The reference length closest to the hypothesis length, ties going to the shorter reference
 * (sacrebleu `_get_closest_ref_len`, nltk `closest_ref_length`).
 */
export function closestReferenceLength(hypothesisLength: number, referenceLengths: readonly number[]): number {
  let best = -1;
  let bestDiff = -1;
  for (const length of referenceLengths) {
    const diff = Math.abs(hypothesisLength - length);
    if (bestDiff < 0 || diff < bestDiff || (diff === bestDiff && length < best)) {
      bestDiff = diff;
      best = length;
    }
  }
  return best;
}

/** Segment statistics summed over a corpus, in the variants the BLEU implementations need. */
export interface PooledStats {
  /** Σ clipped matches per order. */
  matches: number[];
  /** Σ hypothesis n-grams per order (nmt `possible_matches`, sacrebleu `total`). */
  ngrams: number[];
  /** Σ max(1, hypothesis n-grams) per order (nltk `modified_precision` denominators). */
  ngramsAtLeastOne: number[];
  hypothesisLength: number;
  /** Σ shortest reference length (nmt / HF evaluate). */
  shortestReferenceLength: number;
  /** Σ closest reference length, ties to the shorter (sacrebleu, nltk). */
  closestReferenceLength: number;
}

/**
 * Sums segment statistics over a corpus.
 * @throws {RangeError} when a segment has no reference (the references would raise on `min()` of nothing).
 */
export function poolSegmentStats(segments: readonly SegmentStats[], maxOrder: number): PooledStats {
  const matches = new Array<number>(maxOrder).fill(0);
  const ngrams = new Array<number>(maxOrder).fill(0);
  const ngramsAtLeastOne = new Array<number>(maxOrder).fill(0);
  let hypothesisLength = 0;
  let shortest = 0;
  let closest = 0;
  for (const segment of segments) {
    if (segment.referenceLengths.length === 0) throw new RangeError("every segment needs at least one reference");
    hypothesisLength += segment.hypothesisLength;
    shortest += Math.min(...segment.referenceLengths);
    closest += closestReferenceLength(segment.hypothesisLength, segment.referenceLengths);
    for (let i = 0; i < maxOrder; i++) {
      const count = ngramCount(segment.hypothesisLength, i + 1);
      matches[i] = (matches[i] as number) + (segment.matches[i] as number);
      ngrams[i] = (ngrams[i] as number) + count;
      ngramsAtLeastOne[i] = (ngramsAtLeastOne[i] as number) + Math.max(1, count);
    }
  }
  return {
    matches,
    ngrams,
    ngramsAtLeastOne,
    hypothesisLength,
    shortestReferenceLength: shortest,
    closestReferenceLength: closest,
  };
}
