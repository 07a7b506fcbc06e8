import { readFile } from "node:fs/promises";
import { bundledPath } from "../foundation/package-paths.ts";
import { decodeInt8Rows, encodeInt8Rows } from "./int8-rows-file.ts";
import type { SentenceEncoder } from "./red-flags-semantic.ts";

/**
 * A static distillation of Universal Sentence Encoder lite (in the spirit of Model2Vec): a table of one
 * vector per token of USE-lite's own sentencepiece vocabulary, made ahead of time from the model
 * (`data/use-lite-static/make-table.ts`), so that a sentence's vector is the sum of its tokens' rows.
 * Tokenising and summing take microseconds on the calling thread: no worker, no TF.js, no optional
 * package at chat time. Its vectors are not USE-lite's; they are fitted so that sentences' cosines
 * come near USE-lite's (see the table's README for how near), and the semantic signal's thresholds
 * are chosen for them.
 */

/** The bundled table (`data/use-lite-static/`): the vocabulary, and each token's row as int8 with a scale. */
export const STATIC_TABLE_FILE = bundledPath("data", "use-lite-static", "use-lite-static.bin");

/** The first bytes of a table file. */
const MAGIC = "USLS";

/** What a table file's JSON header says. */
export interface StaticTableHeader {
  /** The encoder's model name (a cache key): changes with the table's numbers. */
  readonly model: string;
  /** The width of each row. */
  readonly dims: number;
  /** The sentencepiece vocabulary: each piece with its log-probability (null for the reserved ones). */
  readonly pieces: ReadonlyArray<readonly [string, number | null]>;
  /** How many of the first pieces are reserved (never matched in text). */
  readonly reserved: number;
  /** The longest token sequence the model reads (the rest is cut, as USE-lite cuts it). */
  readonly maxTokens: number;
}

/** A decoded table: its header, and each piece's row (already scaled back to floats). */
export interface StaticTable {
  readonly header: StaticTableHeader;
  readonly rows: Float32Array;
}

/**
 * A table file's bytes (`./int8-rows-file.ts`): `USLS`, the header, each piece's scale, then each
 * piece's row (int8).
 */
export function encodeStaticTable(header: StaticTableHeader, scales: Float32Array, rows: Int8Array): Buffer {
  return encodeInt8Rows(MAGIC, header, scales, rows);
}

/** A table from a table file's bytes ({@link encodeStaticTable}); throws when they are not one. */
export function decodeStaticTable(bytes: Buffer): StaticTable {
  const { header, values } = decodeInt8Rows<StaticTableHeader>(bytes, MAGIC, "static encoder table", (table) => ({
    rows: table.pieces.length,
    width: table.dims,
  }));
  return { header, rows: values };
}

/** A node of the pieces' trie: the piece ending here (its index), and the next characters. */
interface TrieNode {
  piece: number;
  readonly next: Map<string, TrieNode>;
}

/** The sentencepiece word separator. */
const SEPARATOR = "\u2581";

/**
 * USE-lite's tokeniser, as `@energetic-ai/embeddings` 0.2.0 runs it (a unigram sentencepiece model,
 * best path by the pieces' log-probabilities, its tie-breaking and unknown-character handling kept),
 * so that a sentence's token ids are the model's. Unknown characters are piece 0, a run of them one.
 */
export class PieceTokenizer {
  private readonly root: TrieNode = { piece: -1, next: new Map() };

  constructor(
    private readonly pieces: ReadonlyArray<readonly [string, number | null]>,
    reserved: number,
  ) {
    for (let index = reserved; index < pieces.length; index++) {
      let node = this.root;
      for (const symbol of pieces[index]![0]) {
        let child = node.next.get(symbol);
        if (!child) node.next.set(symbol, (child = { piece: -1, next: new Map() }));
        node = child;
      }
      node.piece = index;
    }
  }

  /** The token ids of a text. */
  encode(text: string): number[] {
    const normalised = text.normalize("NFKC");
    const symbols = [...(normalised.length > 0 ? SEPARATOR + normalised.replace(/ /g, SEPARATOR) : "")];
    const best = new Float64Array(symbols.length + 1);
    const chosen = new Int32Array(symbols.length + 1);
    // The pieces ending at each position, by their start (ascending): the order the package weighs them in.
    const endingAt: Array<Array<[start: number, piece: number]>> = Array.from({ length: symbols.length + 1 }, () => []);
    for (let start = 0; start < symbols.length; start++) {
      let node = this.root.next.get(symbols[start]!);
      let found = false;
      for (let end = start + 1; node; end++) {
        if (node.piece >= 0) {
          endingAt[end]!.push([start, node.piece]);
          found = true;
        }
        node = end < symbols.length ? node.next.get(symbols[end]!) : undefined;
      }
      if (!found) endingAt[start + 1]!.push([start, 0]);
    }
    for (let end = 1; end <= symbols.length; end++) {
      for (const [start, piece] of endingAt[end]!) {
        const score = (piece === 0 ? 0 : (this.pieces[piece]![1] ?? 0)) + best[start]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          chosen[end] = piece;
        }
      }
    }
    return this.backtrack(chosen, symbols.length);
  }

  /** The best path's pieces, first to last, a run of unknown characters as one. */
  private backtrack(chosen: Int32Array, length: number): number[] {
    const ids: number[] = [];
    for (let at = length; at > 0; at -= this.pieces[chosen[at]!]![0].length) {
      if (!(chosen[at] === 0 && ids[ids.length - 1] === 0)) ids.push(chosen[at]!);
    }
    return ids.reverse();
  }
}

/** A sentence encoder over a static table: the sum of its tokens' rows. */
export class StaticSentenceEncoder implements SentenceEncoder {
  readonly model: string;
  private readonly tokenizer: PieceTokenizer;

  constructor(private readonly table: StaticTable) {
    this.model = table.header.model;
    this.tokenizer = new PieceTokenizer(table.header.pieces, table.header.reserved);
  }

  /** The width of its vectors. */
  get dims(): number {
    return this.table.header.dims;
  }

  /** The token ids of a sentence, as the model reads it (at most its longest). */
  tokens(sentence: string): number[] {
    return this.tokenizer.encode(sentence).slice(0, this.table.header.maxTokens);
  }

  /** A sentence's vector, synchronously. */
  encodeOne(sentence: string): Float32Array {
    const { dims } = this.table.header;
    const vector = new Float32Array(dims);
    for (const id of this.tokens(sentence)) {
      const row = this.table.rows.subarray(id * dims, (id + 1) * dims);
      for (let dim = 0; dim < dims; dim++) vector[dim]! += row[dim]!;
    }
    return vector;
  }

  encode(sentences: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(sentences.map((sentence) => this.encodeOne(sentence)));
  }
}

/** Loads the static encoder from a table file (default the bundled one); rejects when it is missing or not a table. */
export async function loadStaticEncoder(file: string = STATIC_TABLE_FILE): Promise<StaticSentenceEncoder> {
  return new StaticSentenceEncoder(decodeStaticTable(await readFile(file)));
}
