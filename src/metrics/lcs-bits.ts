/**
 * The longest common subsequence of two token-id sequences, bit-parallel (Hyyrö 2004, "Bit-parallel
 * LCS-length computation revisited"): the dynamic-programming table's column for each token of `b` is
 * kept as one bit per token of `a` — bit k is 0 where the table steps up by one between rows k and k+1 —
 * and the whole column is advanced with a few word operations, `V' = (V + (V & M)) | (V & ~M)` where
 * M marks the positions of `a` holding that token. The table is the one rouge_score fills
 * (`_lcs_table`), so its values, and the LCS a backtrack reads from it, are the same; only the work
 * shrinks, from one step per cell to one per 32 cells (full visit notes hold ~600 tokens each).
 */

const WORD_BITS = 32;
const ALL_ONES = 0xffffffff;

/** For each token of a sequence, the words of the bit mask of its positions in the sequence. */
export interface MatchMasks {
  readonly words: number;
  /** Per token id, its row in `masks`, or -1 when the sequence lacks it. */
  readonly rowOf: Int32Array;
  readonly masks: Uint32Array;
}

/**
 * The match masks of `a`, its token ids' rows written into `rowOf` (one entry per id of the
 * vocabulary, -1 for ids `a` lacks); {@link clearMatchMasks} sets them back to -1 so that one table
 * serves every line of a note.
 */
export function matchMasks(a: Int32Array, rowOf: Int32Array): MatchMasks {
  const words = Math.max(1, Math.ceil(a.length / WORD_BITS));
  let rows = 0;
  for (const id of a) if (rowOf[id] === -1) rowOf[id] = rows++;
  const masks = new Uint32Array(rows * words);
  a.forEach((id, position) => {
    const at = rowOf[id]! * words + (position >>> 5);
    masks[at] = (masks[at]! | (1 << (position & 31))) >>> 0;
  });
  return { words, rowOf, masks };
}

/** Sets the rows {@link matchMasks} wrote for `a` back to -1. */
export function clearMatchMasks(a: Int32Array, rowOf: Int32Array): void {
  for (const id of a) rowOf[id] = -1;
}

/** Advances the column `v` (at `offset`, `words` long) by one token's mask row; a token `a` lacks leaves it unchanged. */
function advance(v: Uint32Array, from: number, to: number, masks: Uint32Array, row: number, words: number): void {
  let carry = 0;
  const base = row * words;
  for (let k = 0; k < words; k++) {
    const column = v[from + k]!;
    const mask = masks[base + k]!;
    const matched = (column & mask) >>> 0;
    const sum = column + matched + carry;
    carry = sum > ALL_ONES ? 1 : 0;
    v[to + k] = ((sum >>> 0) | (column & ~mask)) >>> 0;
  }
}

/** Zero bits among the lowest `bits` bits of the column at `offset`: the table's value at that row. */
function zerosBelow(v: Uint32Array, offset: number, bits: number): number {
  let zeros = 0;
  const full = bits >>> 5;
  for (let k = 0; k < full; k++) zeros += WORD_BITS - popcount(v[offset + k]!);
  const rest = bits & 31;
  if (rest > 0) zeros += rest - popcount(v[offset + full]! & ((1 << rest) - 1));
  return zeros;
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The length of the LCS of `a` and `b` (ids below `vocabularySize`). */
export function lcsLengthBits(a: Int32Array, b: Int32Array, vocabularySize: number): number {
  if (a.length === 0 || b.length === 0) return 0;
  const { words, rowOf, masks } = matchMasks(a, new Int32Array(vocabularySize).fill(-1));
  const v = new Uint32Array(words).fill(ALL_ONES);
  for (const id of b) {
    const row = rowOf[id]!;
    if (row >= 0) advance(v, 0, 0, masks, row, words);
  }
  return zerosBelow(v, 0, a.length);
}

/**
 * Marks in `marks` the indices into `ref` of the LCS rouge_score's `_backtrack_norec` reads from the
 * table of `ref` (rows) and `can` (columns): from the last cell, a match goes diagonally; otherwise it
 * moves left only when the left cell is strictly larger than the upper one, so ties move up. `masks`
 * are `ref`'s ({@link matchMasks}).
 */
export function markReferenceLcs(ref: Int32Array, can: Int32Array, masks: MatchMasks, marks: Uint8Array): void {
  const { words, rowOf } = masks;
  // Without a shared token the LCS is empty: most line pairs of two notes, answered without a table.
  if (ref.length === 0 || !can.some((id) => rowOf[id]! >= 0)) return;
  if (words === 1) {
    markShortReferenceLcs(ref, can, masks, marks);
    return;
  }
  const columns = scratchColumns((can.length + 1) * words);
  columns.fill(ALL_ONES, 0, words);
  can.forEach((id, j) => {
    const row = rowOf[id]!;
    if (row >= 0) advance(columns, j * words, (j + 1) * words, masks.masks, row, words);
    else columns.copyWithin((j + 1) * words, j * words, (j + 1) * words);
  });
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      marks[--i] = 1;
      j--;
    } else if (zerosBelow(columns, (j - 1) * words, i) > zerosBelow(columns, j * words, i - 1)) j--;
    else i--;
  }
}

/**
 * {@link markReferenceLcs} for a reference of at most 32 tokens (most lines of a note): each column is
 * one word, and a table value is a popcount, so nothing is called per cell.
 */
function markShortReferenceLcs(ref: Int32Array, can: Int32Array, masks: MatchMasks, marks: Uint8Array): void {
  const { rowOf } = masks;
  const columns = scratchColumns(can.length + 1);
  let column = ALL_ONES;
  columns[0] = column;
  for (let j = 0; j < can.length; j++) {
    const row = rowOf[can[j]!]!;
    if (row >= 0) {
      const mask = masks.masks[row]!;
      column = ((column + ((column & mask) >>> 0)) | (column & ~mask)) >>> 0;
    }
    columns[j + 1] = column;
  }
  // The table's value at row i of column j: the zeros among the column's lowest i bits.
  const table = (i: number, j: number) => i - popcount(i === WORD_BITS ? columns[j]! : columns[j]! & ((1 << i) - 1));
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      marks[--i] = 1;
      j--;
    } else if (table(i, j - 1) > table(i - 1, j)) j--;
    else i--;
  }
}

/** The LCS indices {@link markReferenceLcs} marks, in increasing order. */
export function lcsReferenceIndicesBits(ref: Int32Array, can: Int32Array, vocabularySize: number): number[] {
  const marks = new Uint8Array(ref.length);
  markReferenceLcs(ref, can, matchMasks(ref, new Int32Array(vocabularySize).fill(-1)), marks);
  return [...marks.keys()].filter((index) => marks[index] === 1);
}

// The columns of the current table, reused between calls and grown on demand.
let columnsScratch = new Uint32Array(4096);

function scratchColumns(size: number): Uint32Array {
  if (columnsScratch.length < size) columnsScratch = new Uint32Array(Math.max(size, columnsScratch.length * 2));
  return columnsScratch;
}
