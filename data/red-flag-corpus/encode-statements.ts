/**
 * Makes the statement vectors read before encoding (`statement-vectors/`, in the repository; the npm
 * package leaves them out): the semantic red-flag
 * signal's statements (the development parts and each flag's example) encoded by USE-lite exactly as
 * the chat encodes them, one file named by the model and the statements' hash. Run it after changing
 * the development parts, the flags' examples or the model; older files are removed. A test checks that
 * the file belongs to the current statements, and the model's test that it holds the model's
 * vectors.
 *
 *   npx tsx data/red-flag-corpus/encode-statements.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags, PREMADE_STATEMENT_VECTORS } from "../../src/clinical/red-flags-encoder.ts";
import { premadeVectorsFile, statementsHash } from "../../src/clinical/red-flags-semantic.ts";
import { loadUseLiteEncoder } from "../../src/clinical/use-lite-encoder.ts";

const encoder = await loadUseLiteEncoder();
const texts = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null, premadeVectorsDir: null }).statementTexts;
const vectors = await encoder.encode(texts);
const bytes = Buffer.concat(vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)));
const file = premadeVectorsFile(PREMADE_STATEMENT_VECTORS, encoder.model, statementsHash(encoder.model, texts));
mkdirSync(PREMADE_STATEMENT_VECTORS, { recursive: true });
for (const old of readdirSync(PREMADE_STATEMENT_VECTORS)) if (old !== basename(file)) rmSync(join(PREMADE_STATEMENT_VECTORS, old));
writeFileSync(file, bytes);
console.log(`${file}: ${texts.length} statements × ${vectors[0]!.length} floats`);
process.exit(0);
