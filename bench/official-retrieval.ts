/**
 * Exemplar retrieval of `--protocol official` at full MediTOD size: `npx tsx bench/official-retrieval.ts
 * [--copies 165] [--dimensions 1024] [--queries 200] [--json]`.
 *
 * The public sample's training dialogue has 51 patient turns; MediTOD's full training split has about
 * 8,400 per task. This writes a MediTOD directory whose training split is `--copies` copies of
 * dialogue 115 (165 copies: 8,415 NLU pool turns), gives the official NLU prompter an in-process
 * embeddings backend answering deterministic `--dimensions`-long vectors (no HTTP, so only our
 * retrieval is timed), embeds the pool once, then times `build()` for `--queries` queries: the query
 * embedding, the inner product with every pool vector and the top 5. Prints the milliseconds per query.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatBackend } from "../src/backends/spec.ts";
import { BUNDLED_MEDITOD_DIR, loadMeditod } from "../src/data/meditod.ts";
import { readMeditodCheckout } from "../src/modules/official/meditod-checkout.ts";
import { OfficialPrompter } from "../src/modules/official/official-prompter.ts";
import { seededRandom } from "../test-support/random.ts";
import { writeStandInCheckout } from "../test-support/stand-in-checkout.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: {
    copies: { type: "string", default: "165" },
    dimensions: { type: "string", default: "1024" },
    queries: { type: "string", default: "200" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const [copies, dimensions, queries] = [Number(values.copies), Number(values.dimensions), Number(values.queries)];

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-retrieval-"));
const dialogs = JSON.parse(readFileSync(join(BUNDLED_MEDITOD_DIR, "dialogs.json"), "utf8")) as Record<string, unknown>;
const trainIds = Array.from({ length: copies }, (_, copy) => `115-${copy}`);
for (const id of trainIds) dialogs[id] = dialogs["115"];
writeFileSync(join(scratch, "dialogs.json"), JSON.stringify(dialogs));
writeFileSync(join(scratch, "train_ids.json"), JSON.stringify(trainIds));
writeFileSync(join(scratch, "valid_ids.json"), JSON.stringify(["317"]));
writeFileSync(join(scratch, "test_ids.json"), JSON.stringify(["407"]));
const dataset = loadMeditod(scratch);

const random = seededRandom(5);
const embeddings = {
  id: "bench:vectors",
  capabilities: { embeddings: true },
  embed: async (texts: readonly string[]) => ({
    embeddings: texts.map(() => Array.from({ length: dimensions }, () => random() - 0.5)),
    usage: { inputTokens: 0, outputTokens: 0 },
  }),
} as unknown as ChatBackend;
const checkout = readMeditodCheckout(writeStandInCheckout(join(scratch, "checkout")));
const prompter = new OfficialPrompter("nlu", checkout.taskDescriptions.nlu, dataset, embeddings);
const patientTurns = dataset.dialogues
  .get("407")!
  .utterances.flatMap((utterance, turn) => (utterance.speaker === "patient" ? [turn] : []));

await prompter.build("407", patientTurns[0]!); // embeds the pool once, as a run does
const started = performance.now();
for (let query = 0; query < queries; query += 1)
  await prompter.build("407", patientTurns[query % patientTurns.length]!);
const perQuery = (performance.now() - started) / queries;
out.line(`pool: ${prompter.pool.length} NLU turns × ${dimensions} dimensions; ${queries} queries`);
out.result({ poolTurns: prompter.pool.length, dimensions, queries, msPerQuery: perQuery });
out.line(`retrieval: ${perQuery.toFixed(2)} ms per query (query embedding in-process, inner products, top 5)`);
rmSync(scratch, { recursive: true, force: true });
