/**
 * rouge_score 0.1.2 `RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer)` with the
 * default tokenizer and `split_summaries=False`, i.e. what Hugging Face evaluate's "rouge" computes per
 * pair. `score(target, prediction)`: the REFERENCE comes first.
 */
import { clippedNgramMatches, internTokens, ngramCount } from "./ngrams.ts";
import { clearMatchMasks, lcsLengthBits, markReferenceLcs, matchMasks } from "./lcs-bits.ts";
import { stemRougeTokens, tokenizeRouge } from "./tokenize-rouge.ts";

/** rouge_score's `Score` tuple. */
export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** The four ROUGE types HF evaluate computes by default. */
export interface RougeScores {
  rouge1: RougeScore;
  rouge2: RougeScore;
  rougeL: RougeScore;
  rougeLsum: RougeScore;
}

/**
 * One text as the ROUGE scorer sees it: its tokens, and for rougeLsum the tokens of each non-empty
 * `"\n"`-separated line, which put end to end are `tokens` (a token never spans a line break).
 * `lines` is `null` when the text has no `"\n"`, the common case in which rougeLsum needs no separate
 * work.
 */
export interface RougeText {
  tokens: readonly string[];
  lines: string[][] | null;
}

/** rouge_score `scoring.fmeasure`: `2*P*R/(P+R)`, or 0 when both are 0. */
export function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function score(precision: number, recall: number): RougeScore {
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

const ZERO: Readonly<RougeScore> = { precision: 0, recall: 0, fmeasure: 0 };

/**
 * Tokenises a text for {@link rougeScoresFromTexts}. With `unstemmedTokens` (this text's
 * `tokenizeRouge(text)` output, e.g. already computed for the unstemmed scorer) the text is not scanned
 * again for the whole-text tokens.
 */
export function rougeText(text: string, useStemmer: boolean, unstemmedTokens?: readonly string[]): RougeText {
  if (!text.includes("\n")) {
    const base = unstemmedTokens ?? tokenizeRouge(text);
    return { tokens: useStemmer ? stemRougeTokens(base) : base, lines: null };
  }
  const lines = text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => tokenizeRouge(line, useStemmer));
  // A token never spans a line break (it is not [a-z0-9]), so the text's tokens are its lines' tokens.
  if (unstemmedTokens === undefined) return { tokens: lines.flat(), lines };
  return { tokens: useStemmer ? stemRougeTokens(unstemmedTokens) : unstemmedTokens, lines };
}

// Scratch DP storage reused between calls; grown on demand.
let table = new Int32Array(1024);

function ensureTable(cells: number): Int32Array {
  if (table.length < cells) {
    let size = table.length;
    while (size < cells) size *= 2;
    table = new Int32Array(size);
  }
  return table;
}

/** Length of the longest common subsequence, with two rolling rows. */
export function lcsLength(a: Int32Array, b: Int32Array): number {
  const cols = b.length;
  const rows = ensureTable(2 * (cols + 1));
  let prev = 0;
  let curr = cols + 1;
  rows.fill(0, 0, 2 * (cols + 1));
  for (let i = 0; i < a.length; i++) {
    const ai = a[i];
    for (let j = 1; j <= cols; j++) {
      if (ai === b[j - 1]) {
        rows[curr + j] = (rows[prev + j - 1] as number) + 1;
      } else {
        const up = rows[prev + j] as number;
        const left = rows[curr + j - 1] as number;
        rows[curr + j] = up > left ? up : left;
      }
    }
    const t = prev;
    prev = curr;
    curr = t;
  }
  return rows[prev + cols] as number;
}

/**
 * The indices into `ref` of the LCS that rouge_score's `_backtrack_norec` reads out of the full DP table.
 * On a mismatch it moves left only when the left cell is strictly larger than the upper one, so ties
 * move up; that choice decides WHICH LCS (and so which reference tokens) rougeLsum unions.
 */
export function lcsReferenceIndices(ref: Int32Array, can: Int32Array): number[] {
  const rows = ref.length;
  const cols = can.length;
  const width = cols + 1;
  const t = ensureTable((rows + 1) * width);
  t.fill(0, 0, width);
  for (let i = 1; i <= rows; i++) {
    const base = i * width;
    t[base] = 0;
    const ri = ref[i - 1];
    for (let j = 1; j <= cols; j++) {
      if (ri === can[j - 1]) {
        t[base + j] = (t[base - width + j - 1] as number) + 1;
      } else {
        const up = t[base - width + j] as number;
        const left = t[base + j - 1] as number;
        t[base + j] = up > left ? up : left;
      }
    }
  }
  const indices: number[] = [];
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      indices.push(i - 1);
      i--;
      j--;
    } else if ((t[i * width + j - 1] as number) > (t[(i - 1) * width + j] as number)) {
      j--;
    } else {
      i--;
    }
  }
  return indices.reverse();
}

/** rouge_score `_summary_level_lcs(ref_sent, can_sent)` on tokenised lines. */
export function summaryLevelLcs(
  refLines: readonly (readonly string[])[],
  canLines: readonly (readonly string[])[],
): RougeScore {
  const interned = internTokens(refLines.flat(), canLines);
  return summaryLevelLcsOfIds(splitLines(interned.hypothesis, refLines), interned.references, interned.vocabularySize);
}

/** A text's token ids cut into its lines' (the text's tokens are its lines' tokens, in order). */
function splitLines(ids: Int32Array, lines: readonly (readonly unknown[])[]): Int32Array[] {
  const out: Int32Array[] = [];
  let offset = 0;
  for (const line of lines) {
    out.push(ids.subarray(offset, offset + line.length));
    offset += line.length;
  }
  return out;
}

/** {@link summaryLevelLcs} on lines of token ids below `vocabularySize`. */
function summaryLevelLcsOfIds(
  refIds: readonly Int32Array[],
  canIds: readonly Int32Array[],
  vocabularySize: number,
): RougeScore {
  if (refIds.length === 0 || canIds.length === 0) return { ...ZERO };
  let m = 0;
  for (const line of refIds) m += line.length;
  let n = 0;
  for (const line of canIds) n += line.length;
  if (m === 0 || n === 0) return { ...ZERO };

  // Remaining counts of each token in each text, so that a token is never credited twice.
  const countsRef = new Int32Array(vocabularySize);
  const countsCan = new Int32Array(vocabularySize);
  for (const line of refIds) for (const id of line) countsRef[id] = (countsRef[id] as number) + 1;
  for (const line of canIds) for (const id of line) countsCan[id] = (countsCan[id] as number) + 1;

  // The union of each reference line's LCS with every candidate line, marked in `marks` and read in
  // index order (the sorted union); one id→mask-row table serves every reference line.
  let hits = 0;
  const rowOf = new Int32Array(vocabularySize).fill(-1);
  const marks = new Uint8Array(Math.max(...refIds.map((ref) => ref.length)));
  for (const ref of refIds) {
    const masks = matchMasks(ref, rowOf);
    marks.fill(0, 0, ref.length);
    for (const can of canIds) markReferenceLcs(ref, can, masks, marks);
    clearMatchMasks(ref, rowOf);
    for (let index = 0; index < ref.length; index++) {
      if (marks[index] === 0) continue;
      const id = ref[index] as number;
      if ((countsCan[id] as number) > 0 && (countsRef[id] as number) > 0) {
        hits++;
        countsCan[id] = (countsCan[id] as number) - 1;
        countsRef[id] = (countsRef[id] as number) - 1;
      }
    }
  }
  return score(hits / n, hits / m);
}

function ngramScore(inter: number, targetCount: number, predictionCount: number): RougeScore {
  return score(inter / Math.max(predictionCount, 1), inter / Math.max(targetCount, 1));
}

/** The four ROUGE scores of already-tokenised texts (see {@link rougeText}). */
export function rougeScoresFromTexts(target: RougeText, prediction: RougeText): RougeScores {
  const t = target.tokens;
  const p = prediction.tokens;
  // rouge_score counts the intersection over target n-grams; min(target, prediction) is symmetric.
  const interned = internTokens(p, [t]);
  const [inter1, inter2] = clippedNgramMatches(interned, 2) as [number, number];
  const rouge1 = ngramScore(inter1, t.length, p.length);
  const rouge2 = ngramScore(inter2, ngramCount(t.length, 2), ngramCount(p.length, 2));

  let rougeL: RougeScore;
  if (t.length === 0 || p.length === 0) {
    rougeL = { ...ZERO };
  } else {
    const lcs = lcsLengthBits(interned.references[0] as Int32Array, interned.hypothesis, interned.vocabularySize);
    rougeL = score(lcs / p.length, lcs / t.length);
  }

  let rougeLsum: RougeScore;
  if (target.lines === null && prediction.lines === null) {
    // One line on each side (or none): the union LCS is the LCS and every LCS token is a hit, so
    // rougeLsum equals rougeL (both are 0 when a side is empty).
    rougeLsum = { ...rougeL };
  } else {
    // A text without "\n" is one line; when it has no tokens the score is 0 either way. The lines'
    // ids are cut from the ids already interned for the whole texts.
    const lines = (ids: Int32Array, text: RougeText): Int32Array[] =>
      text.lines ? splitLines(ids, text.lines) : ids.length > 0 ? [ids] : [];
    rougeLsum = summaryLevelLcsOfIds(
      lines(interned.references[0] as Int32Array, target),
      lines(interned.hypothesis, prediction),
      interned.vocabularySize,
    );
  }
  return { rouge1, rouge2, rougeL, rougeLsum };
}

/**
 * rouge_score `RougeScorer(["rouge1","rouge2","rougeL","rougeLsum"], use_stemmer).score(target, prediction)`.
 * Note the argument order of the reference: target (reference) first, prediction second.
 */
export function rougeScore(target: string, prediction: string, options: { useStemmer?: boolean } = {}): RougeScores {
  const useStemmer = options.useStemmer ?? false;
  return rougeScoresFromTexts(rougeText(target, useStemmer), rougeText(prediction, useStemmer));
}
