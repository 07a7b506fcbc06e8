/**
 * Makes the statement vectors read before encoding (`statement-vectors/`, in the repository; the npm
 * package leaves them out): the semantic red-flag signal's statements (the development parts and each
 * flag's example) encoded by each sentence encoder (the static one, and USE-lite when its optional
 * packages are installed) exactly as the chat encodes them, one file per encoder named by its model and
 * the statements' hash. Run it after changing the development parts, the flags' examples, the static
 * encoder's table or the model; files of other models or statements are removed (USE-lite's is kept
 * when its packages are missing). A test checks that the files belong to the current statements, and
 * the encoders' tests that they hold the encoders' vectors.
 *
 *   npx tsx data/red-flag-corpus/encode-statements.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import {
  bundledSemanticRedFlags,
  PREMADE_STATEMENT_VECTORS,
  SENTENCE_ENCODERS,
} from "../../src/clinical/red-flags-encoder.ts";
import { premadeVectorsFile, statementsHash } from "../../src/clinical/red-flags-semantic.ts";
import { USE_LITE_MODEL } from "../../src/clinical/use-lite-encoder.ts";

const texts = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null, premadeVectorsDir: null }).statementTexts;
mkdirSync(PREMADE_STATEMENT_VECTORS, { recursive: true });
const kept = new Set<string>();
for (const [name, load] of Object.entries(SENTENCE_ENCODERS)) {
  let encoder;
  try {
    encoder = await load();
  } catch (error) {
    console.log(`${name}: not made (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
    if (name === "use-lite") {
      for (const old of readdirSync(PREMADE_STATEMENT_VECTORS)) if (old.startsWith(USE_LITE_MODEL)) kept.add(old);
    }
    continue;
  }
  const vectors = await encoder.encode(texts);
  const bytes = Buffer.concat(vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)));
  const file = premadeVectorsFile(PREMADE_STATEMENT_VECTORS, encoder.model, statementsHash(encoder.model, texts));
  writeFileSync(file, bytes);
  kept.add(basename(file));
  console.log(`${file}: ${texts.length} statements × ${vectors[0]!.length} floats`);
}
for (const old of readdirSync(PREMADE_STATEMENT_VECTORS)) if (!kept.has(old)) rmSync(join(PREMADE_STATEMENT_VECTORS, old));
process.exit(0);
