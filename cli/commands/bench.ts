import type { Command } from "commander";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { createAttributeJudge, describeBackendIds } from "../../src/backends/index.ts";
import type { BackendOptions } from "../../src/backends/index.ts";
import type { NoteDataset } from "../../src/data/note-dataset.ts";
import { createModules, EMBEDDED_BACKEND_ID, type ModuleSetup } from "../../src/modules/builders/create-modules.ts";
import { createNoteModules } from "../../src/modules/builders/create-note-modules.ts";
import { parseShard, runBench, type BenchResults } from "../../eval/runner.ts";
import { checkSplit, defaultSplit, loadBenchDataset, resolveSuites, suiteData, SUITES, type BenchModules, type ProtocolName, type SuiteId } from "../../eval/suites.ts";
import { createOfficialSetup } from "../../src/modules/official/official-setup.ts";
import { isNoteDataset, isPerplexitySuite, notePromptVersion } from "../../eval/note-suites.ts";
import { mergeRunDirectories } from "../../eval/merge.ts";
import { describePartial } from "../../eval/partial-run.ts";
import { checkOutputDirectory } from "../../src/data/input-file.ts";
import type { CmasScores } from "../../src/metrics/cmas-f1.ts";
import type { MeditodNlgResult } from "../../src/metrics/meditod-nlg.ts";
import type { PerplexityScores } from "../../src/metrics/perplexity.ts";
import type { PolicyScores } from "../../eval/meditod-scoring.ts";
import type { NoteGenerationScores } from "../../eval/note-scoring.ts";
import { formatScore, formatTable, printJson } from "../shared/output.ts";
import { describeProtocol, tunedMark } from "../../eval/protocol-label.ts";
import { clearRunDirectory } from "../../eval/run-directory.ts";
import { createProgressReporter } from "../shared/progress.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { positiveInteger } from "../shared/positive-integer.ts";

interface BenchFlags {
  suite: string[];
  backend: string;
  split?: string;
  limit?: string;
  shard?: string;
  data?: string;
  out?: string;
  json?: boolean;
  baseUrl?: string;
  concurrency?: string;
  timeoutMs?: string;
  cache: boolean;
  judge: string;
  exemplars?: string;
  retrieval: string;
  fallback?: string;
  restart?: boolean;
  protocol?: string;
  meditodRepo?: string;
  embeddings?: string;
  embeddingsBaseUrl?: string;
  maxTokens?: string;
  contextTokens?: string;
}

/**
 * The MediTOD protocol of a run: as asked, else `official` when a MediTOD checkout is given
 * (`--meditod-repo` or `MEDITOD_REPO`) to an LLM backend, else `anamnesis`; the embedded engine is
 * not prompted and is labelled `embedded`.
 */
export function chooseProtocol(flags: Pick<BenchFlags, "protocol" | "meditodRepo" | "backend">, env: NodeJS.ProcessEnv = process.env): ProtocolName {
  const embedded = flags.backend === EMBEDDED_BACKEND_ID;
  if (flags.protocol !== undefined && flags.protocol !== "official" && flags.protocol !== "anamnesis") {
    throw new AnamnesisError("INVALID_ARGUMENT", `--protocol must be official or anamnesis (got '${flags.protocol}')`);
  }
  if (flags.protocol === "official" && embedded) {
    throw new AnamnesisError("INVALID_ARGUMENT", "--protocol official prompts an LLM: give --backend openai:<model> or ollama:<model> (the embedded engine has no prompts)");
  }
  if (embedded) return "embedded";
  return (flags.protocol as ProtocolName | undefined) ?? (flags.meditodRepo ?? env.MEDITOD_REPO ? "official" : "anamnesis");
}

/** The clinical-note suites' results as a table, and whether lm-eval's numbers are comparable. */
function formatNoteResultsTable(results: BenchResults): string {
  const rows = Object.entries(results.suites).map(([suite, scores]) => {
    if (isPerplexitySuite(suite)) {
      const perplexity = scores as PerplexityScores;
      return [suite, String(perplexity.samples), [`word ppl ${perplexity.word_perplexity.toFixed(2)}`, `byte ppl ${perplexity.byte_perplexity.toFixed(4)}`, `bits/byte ${perplexity.bits_per_byte.toFixed(4)}`].join("   ")];
    }
    const note = scores as NoteGenerationScores;
    return [suite, String(note.samples), [`BLEU ${formatScore(note.bleu)}`, `ROUGE-1 ${formatScore(note.rouge1)}`, `ROUGE-2 ${formatScore(note.rouge2)}`, `ROUGE-L ${formatScore(note.rougeL)}`].join("   ")];
  });
  const data = results.dataset!;
  return `${formatTable(["suite", "documents", "scores"], rows, [0, 2])}\n${data.name}, split ${data.split}: ${data.comparable_with_lm_eval ? "comparable" : "not comparable"} with lm-evaluation-harness's numbers (see the report).`;
}

/** The results as the table `npm run bench` prints. */
export function formatResultsTable(results: BenchResults): string {
  if (results.dataset) return formatNoteResultsTable(results);
  const rows: string[][] = [];
  const nlu = results.suites["meditod-nlu"] as CmasScores | undefined;
  const pol = results.suites["meditod-pol"] as PolicyScores | undefined;
  const nlg = results.suites["meditod-nlg"] as (MeditodNlgResult & { format_errors?: number }) | undefined;
  if (nlu) rows.push(["meditod-nlu", String(nlu.samples), `F1 ${formatScore(nlu.overall.f1)}`, `medical F1 ${formatScore(nlu.medical.f1)}`, `non-medical F1 ${formatScore(nlu.non_medical.f1)}`, `format errors ${formatScore(nlu.format_errors)}`]);
  if (pol) rows.push(["meditod-pol", String(pol.samples), `F1 ${formatScore(pol.overall.f1)}`, `P@1 ${formatScore(pol.precision_at["1"])}`, `P@4 ${formatScore(pol.precision_at["4"])}`, `P@inf ${formatScore(pol.precision_at.inf)}`, `format errors ${formatScore(pol.format_errors)}`]);
  if (nlg) rows.push(["meditod-nlg", String(nlg.samples), `BLEU-2 ${nlg.bleu2.toFixed(2)}`, `BLEU-4 ${nlg.bleu4.toFixed(2)}`, `ROUGE-1 ${formatScore(nlg.rouge1)}`, `ROUGE-L ${formatScore(nlg.rougeL)}`, ...(nlg.format_errors !== undefined ? [`format errors ${formatScore(nlg.format_errors)}`] : [])]);
  // Figures on dialogues the engine was shaped on say so beside them.
  const mark = tunedMark(results.tuned_on_split);
  const table = formatTable(["suite", "turns", "scores"], rows.map(([suite, turns, ...scores]) => [suite!, turns!, [...scores, ...(mark ? [`(${mark})`] : [])].join("   ")]), [0, 2]);
  return `protocol ${describeProtocol(results.protocol)}\n${table}${results.tuned_on_split ? `\n${results.tuned_on_split}` : ""}`;
}

/** The note writer and log-likelihood scorer as a module setup; a perplexity suite needs a backend that scores. */
async function noteModuleSetup(backendId: string, dataset: NoteDataset, split: string, suites: readonly SuiteId[], backendOptions: BackendOptions): Promise<Omit<ModuleSetup, "modules"> & { modules: BenchModules }> {
  const setup = await createNoteModules(backendId, dataset, split, { backendOptions });
  if (suites.some((id) => SUITES[id].module === "likelihood") && !setup.likelihood) {
    await setup.close();
    throw new AnamnesisError("INVALID_ARGUMENT", setup.likelihoodUnavailable!);
  }
  const generates = suites.some((id) => SUITES[id].module === "note");
  return {
    modules: { note: setup.note, ...(setup.likelihood ? { likelihood: setup.likelihood } : {}) },
    backend: setup.backend,
    promptVersions: generates && backendId !== EMBEDDED_BACKEND_ID ? { note: notePromptVersion(dataset.task) } : {},
    protocol: setup.protocol,
    close: () => setup.close(),
  };
}

/** Registers `anamnesis bench`. */
export function registerBenchCommand(program: Command): void {
  program
    .command("bench")
    .description("Run benchmark suites with a backend; resumable, writes predictions, results.json and reports.")
    .option("--suite <id...>", "meditod (all three), meditod-nlu, meditod-pol, meditod-nlg; or lm-eval's clinical-note suites mts-dialog, mts-dialog-perplexity, medtext, medtext-perplexity (one dataset per run)", ["meditod"])
    .option("--backend <id>", `${EMBEDDED_BACKEND_ID} (offline, default), ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`, EMBEDDED_BACKEND_ID)
    .option("--split <split>", "MediTOD: test (default), valid, train, ood; MTS-Dialog: valid (default), train, test1, test2, or for a --data file all (default), train, valid; MedText: all")
    .option("--limit <n>", "only the first n examples of each suite")
    .option("--shard <i/n>", "only every n-th example, starting at the i-th (merge shards with anamnesis merge)")
    .option("--data <path>", "MediTOD directory (default: the bundled public sample); MTS-Dialog file in the har1 layout (default: the bundled CSVs); MedText CSV/JSONL file (required); - reads a file from standard input")
    .option("--out <dir>", "run directory (default runs/<backend>-<split>, or runs/<backend>-<dataset>-<split>); an existing run there is resumed")
    .option("--json", "print results.json")
    .option("--restart", "discard the run already in --out (its predictions, results and reports) instead of resuming it")
    .option("--base-url <url>", "server base URL (OpenAI-compatible …/v1, or the Ollama host)")
    .option("--concurrency <n>", "requests in flight at once")
    .option("--timeout-ms <n>", "per-request timeout")
    .option("--no-cache", "bypass the response cache")
    .option("--judge <id>", `non-medical attribute matching: exact, or a backend id for an LLM judge: ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`, "exact")
    .option("--exemplars <n>", "in-context exemplars per prompt (LLM backends)", "5")
    .option("--retrieval <kind>", "exemplar retrieval: bm25 or dense (embeddings from the backend)", "bm25")
    .option("--fallback <engine>", "embedded: answer with the offline engine when the model's output is a format error")
    .option("--protocol <name>", "MediTOD prompting: official (dair-iitd/MediTOD's pipeline; default when a checkout is given) or anamnesis (ours; default otherwise)")
    .option("--meditod-repo <dir>", "checkout of dair-iitd/MediTOD whose src/prompting/commons.py gives the official prompts (or MEDITOD_REPO)")
    .option("--embeddings <id>", "official protocol: openai:<model> or ollama:<model> serving the retrieval embeddings (the paper: BAAI/bge-large-en-v1.5)")
    .option("--embeddings-base-url <url>", "official protocol: the embeddings server's base URL")
    .option("--context-tokens <n>", "anamnesis protocol: the model's context window the prompt and answer must fit (default 8192; the paper's 4096 leaves policy prompts fewer exemplars)")
    .option("--max-tokens <n>", "official protocol: max_tokens of each reply (official default 200)")
    .option(...PROVIDER_MODULE_OPTION)
    .action(async (flags: BenchFlags) => {
      const suites = resolveSuites(flags.suite.flatMap((id) => id.split(",")));
      const data = suiteData(suites);
      if (flags.retrieval !== "bm25" && flags.retrieval !== "dense") throw new AnamnesisError("INVALID_ARGUMENT", `--retrieval must be bm25 or dense (got '${flags.retrieval}')`);
      const limit = positiveInteger(flags.limit, "--limit");
      const concurrency = positiveInteger(flags.concurrency, "--concurrency");
      const timeoutMs = positiveInteger(flags.timeoutMs, "--timeout-ms");
      const exemplars = Number(flags.exemplars ?? 5);
      if (!Number.isInteger(exemplars) || exemplars < 0) throw new AnamnesisError("INVALID_ARGUMENT", `--exemplars must be a whole number (got '${flags.exemplars}')`);
      const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
      const protocol = chooseProtocol(flags);
      const maxTokens = positiveInteger(flags.maxTokens, "--max-tokens");
      const contextTokens = positiveInteger(flags.contextTokens, "--context-tokens");
      if (protocol === "official" && data !== "meditod") throw new AnamnesisError("INVALID_ARGUMENT", "--protocol official is for the MediTOD suites (meditod, meditod-nlu, meditod-pol, meditod-nlg)");
      // The official pipeline has no fallback, no token budget and its own retrieval: refuse rather than ignore.
      const ours = [flags.fallback !== undefined && "--fallback", contextTokens !== undefined && "--context-tokens", flags.retrieval !== "bm25" && "--retrieval"].filter(Boolean);
      if (protocol === "official" && ours.length > 0) throw new AnamnesisError("INVALID_ARGUMENT", `${ours.join(", ")} belong${ours.length === 1 ? "s" : ""} to --protocol anamnesis; the official protocol has none (retrieval: --embeddings)`);
      if (protocol !== "official" && (flags.embeddings !== undefined || maxTokens !== undefined)) throw new AnamnesisError("INVALID_ARGUMENT", "--embeddings and --max-tokens belong to --protocol official (give --meditod-repo DIR or MEDITOD_REPO too)");
      const dataset = loadBenchDataset(data, flags.data);
      const split = flags.split ?? defaultSplit(dataset);
      checkSplit(dataset, split);
      const backendOptions: BackendOptions = {
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(concurrency ? { concurrency } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(flags.cache === false ? { noCache: true } : {}),
      };
      const outDir = resolve(flags.out ?? join("runs", `${flags.backend.replace(/[^A-Za-z0-9._-]+/g, "_")}-${data === "meditod" ? "" : `${data}-`}${split}${shard ? `-shard${shard.index}of${shard.count}` : ""}`));
      checkOutputDirectory(outDir, "--out");
      if (flags.restart) clearRunDirectory(outDir);
      if (flags.fallback !== undefined && flags.fallback !== EMBEDDED_BACKEND_ID) throw new AnamnesisError("INVALID_ARGUMENT", `--fallback must be embedded (got '${flags.fallback}')`);
      const setup = isNoteDataset(dataset)
        ? await noteModuleSetup(flags.backend, dataset, split, suites, backendOptions)
        : protocol === "official"
          ? await createOfficialSetup(flags.backend, dataset, {
              checkoutDir: flags.meditodRepo ?? process.env.MEDITOD_REPO,
              embeddings: flags.embeddings,
              ...(flags.embeddingsBaseUrl ? { embeddingsBaseUrl: flags.embeddingsBaseUrl } : {}),
              ...(maxTokens ? { maxTokens } : {}),
              exemplars,
              backendOptions,
            })
          : await createModules(flags.backend, dataset, { backendOptions, retrieval: flags.retrieval, exemplars, ...(contextTokens ? { tokenBudget: contextTokens } : {}), ...(flags.fallback ? { fallback: "embedded" as const } : {}) });
      const judge = await createAttributeJudge(flags.judge, backendOptions);
      const progress = createProgressReporter();
      const abort = new AbortController();
      const onSignal = () => abort.abort(new AnamnesisError("INVALID_ARGUMENT", "interrupted"));
      process.once("SIGINT", onSignal);
      try {
        const results = await runBench({
          suites,
          modules: setup.modules,
          backend: setup.backend,
          ...(data === "meditod" ? { protocolName: protocol } : {}),
          dataset,
          split,
          outDir,
          ...(limit ? { limit } : {}),
          ...(shard ? { shard } : {}),
          ...(concurrency ? { concurrency } : {}),
          judge,
          promptVersions: setup.promptVersions,
          protocol: setup.protocol,
          signal: abort.signal,
          onProgress: (event) => progress.update(event),
        });
        progress.stop();
        if (flags.json) printJson(results);
        else process.stdout.write(`${formatResultsTable(results)}\n\nReports: ${join(outDir, "report.md")}, ${join(outDir, "report.html")}\n`);
      } finally {
        progress.stop();
        process.removeListener("SIGINT", onSignal);
        await setup.close();
      }
    });
}

/** Registers `anamnesis merge`: shards' run directories into one run. */
export function registerMergeCommand(program: Command): void {
  program
    .command("merge")
    .description("Combine the run directories of shards into one run, scored and reported.")
    .argument("<dirs...>", "run directories (e.g. shards 1/n … n/n)")
    .requiredOption("--out <dir>", "the merged run directory")
    .option("--data <dir>", "MediTOD directory; default: the one the runs used")
    .option("--allow-partial", "merge even when shards or lines are missing (every output then says the run is partial)")
    .option("--json", "print results.json")
    .action(async (dirs: string[], flags: { out: string; data?: string; json?: boolean; allowPartial?: boolean }) => {
      for (const dir of dirs) {
        if (!existsSync(join(dir, "run.json"))) throw new AnamnesisError("FILE_NOT_FOUND", `${dir} is not a run directory (no run.json)`);
      }
      const results = await mergeRunDirectories(dirs.map((dir) => resolve(dir)), resolve(flags.out), flags.data, { allowPartial: flags.allowPartial === true });
      if (results.partial) process.stderr.write(`anamnesis: warning: ${describePartial(results.partial)}\n`);
      if (flags.json) printJson(results);
      else process.stdout.write(`${results.partial ? `${describePartial(results.partial)}\n\n` : ""}${formatResultsTable(results)}\n`);
    });
}
