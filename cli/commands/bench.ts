import type { Command } from "commander";
import { setMaxListeners } from "node:events";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { describeBackendIds } from "../../src/backends/index.ts";
import type { BackendOptions } from "../../src/backends/index.ts";
import { checkOutputDirectory } from "../../src/data/input-file.ts";
import { EMBEDDED_BACKEND_ID } from "../../src/modules/builders/create-modules.ts";
import type { ProtocolModulesRequest, ProtocolName } from "../../src/modules/builders/modules-for-protocol.ts";
import type { DatasetSource } from "../../eval/shared/bench-dataset.ts";
import { mergeRunDirectories } from "../../eval/merge.ts";
import { describePartial } from "../../eval/shared/partial-run.ts";
import { prepareBench, type BenchPlan } from "../../eval/prepare-bench.ts";
import { SUITE_REGISTRY } from "../../eval/registry.ts";
import { formatResultsTable } from "../../eval/results-table.ts";
import { clearRunDirectory } from "../../eval/shared/run-directory.ts";
import { parseShard, type Shard } from "../../eval/runner.ts";
import type { SuiteFamily } from "../../eval/shared/suite-family.ts";
import { printJson } from "../shared/output.ts";
import { createProgressReporter } from "../shared/progress.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { positiveInteger } from "../shared/positive-integer.ts";
import { DEFAULT_CONSULT_SETTINGS } from "../../eval/suites/consult/consult-settings.ts";
import { addModelMetricOptions, modelMetricRequest, type ModelMetricFlags } from "../shared/model-metric-options.ts";

interface BenchFlags extends ModelMetricFlags {
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
  patient?: string;
  patientBaseUrl?: string;
  maxQuestions?: string;
  maxTurns?: string;
}

/**
 * The MediTOD protocol of a run: as asked, else `official` when a MediTOD checkout is given
 * (`--meditod-repo` or `MEDITOD_REPO`) to an LLM backend, else `anamnesis`; the embedded engine is
 * not prompted and is labelled `embedded`.
 */
export function chooseProtocol(
  flags: Pick<BenchFlags, "protocol" | "meditodRepo" | "backend">,
  env: NodeJS.ProcessEnv = process.env,
): ProtocolName {
  const embedded = flags.backend === EMBEDDED_BACKEND_ID;
  if (flags.protocol !== undefined && flags.protocol !== "official" && flags.protocol !== "anamnesis") {
    throw new AnamnesisError("INVALID_ARGUMENT", `--protocol must be official or anamnesis (got '${flags.protocol}')`);
  }
  if (flags.protocol === "official" && embedded) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      "--protocol official prompts an LLM: give --backend openai:<model> or ollama:<model> (the embedded engine has no prompts)",
    );
  }
  if (embedded) return "embedded";
  return (
    (flags.protocol as ProtocolName | undefined) ?? ((flags.meditodRepo ?? env.MEDITOD_REPO) ? "official" : "anamnesis")
  );
}

/** `--suite`'s help: every family's suites (an alias first), from the registry. */
function suiteHelp(): string {
  const families = SUITE_REGISTRY.families.map((family, index) => {
    const ids = SUITE_REGISTRY.suites.filter((suite) => suite.family === family).map((suite) => suite.id);
    const words = [...(family.alias ? [`${family.alias.word} (${family.alias.description})`] : []), ...ids];
    return `${index > 0 ? "or " : ""}${family.helpLabel ? `${family.helpLabel} ` : ""}${words.join(", ")}`;
  });
  return `${families.join("; ")} (one dataset per run)`;
}

/** Registers `anamnesis bench`. */
export function registerBenchCommand(program: Command): void {
  const datasets = SUITE_REGISTRY.datasets;
  const command = program
    .command("bench")
    .description("Run benchmark suites with a backend; resumable, writes predictions, results.json and reports.")
    .option("--suite <id...>", suiteHelp(), ["meditod"])
    .option(
      "--backend <id>",
      `${EMBEDDED_BACKEND_ID} (offline, default), ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
      EMBEDDED_BACKEND_ID,
    )
    .option("--split <split>", datasets.map((source) => source.splitHelp).join("; "))
    .option("--limit <n>", "only the first n examples of each suite")
    .option("--shard <i/n>", "only every n-th example, starting at the i-th (merge shards with anamnesis merge)")
    .option(
      "--data <path>",
      [...datasets.map((source) => source.dataHelp), "- reads a file from standard input"].join("; "),
    )
    .option(
      "--out <dir>",
      "run directory (default runs/<backend>-<split>, or runs/<backend>-<dataset>-<split>); an existing run there is resumed",
    )
    .option("--json", "print results.json")
    .option(
      "--restart",
      "discard the run already in --out (its predictions, results and reports) instead of resuming it",
    )
    .option("--base-url <url>", "server base URL (OpenAI-compatible …/v1, or the Ollama host)")
    .option(
      "--concurrency <n>",
      "requests in flight at once (consultation suites with a backend doctor or patient keep 4 × n cases open)",
    )
    .option("--timeout-ms <n>", "per-request timeout")
    .option("--no-cache", "bypass the response cache")
    .option(
      "--judge <id>",
      `non-medical attribute matching: exact, or a backend id for an LLM judge: ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
      "exact",
    )
    .option("--exemplars <n>", "in-context exemplars per prompt (LLM backends)", "5")
    .option("--retrieval <kind>", "exemplar retrieval: bm25 or dense (embeddings from the backend)", "bm25")
    .option(
      "--fallback <engine>",
      "embedded: answer with the offline engine when the model's output is a format error",
    );
  const withMetrics = addModelMetricOptions(addPromptingOptions(command), ["bertscore", "bleurt", "medcon"]);
  withConsultAndProviderOptions(withMetrics).action(runBenchCommand);
}

/** The flags of how an LLM backend is prompted: the MediTOD protocol and its settings. */
function addPromptingOptions(command: Command): Command {
  return command
    .option(
      "--protocol <name>",
      "MediTOD prompting: official (dair-iitd/MediTOD's pipeline; default when a checkout is given) or anamnesis (ours; default otherwise)",
    )
    .option(
      "--meditod-repo <dir>",
      "checkout of dair-iitd/MediTOD whose src/prompting/commons.py gives the official prompts (or MEDITOD_REPO)",
    )
    .option(
      "--embeddings <id>",
      "official protocol: openai:<model> or ollama:<model> serving the retrieval embeddings (the paper: BAAI/bge-large-en-v1.5)",
    )
    .option("--embeddings-base-url <url>", "official protocol: the embeddings server's base URL")
    .option(
      "--context-tokens <n>",
      "anamnesis protocol: the model's context window the prompt and answer must fit (default 8192; the paper's 4096 leaves policy prompts fewer exemplars)",
    )
    .option("--max-tokens <n>", "official protocol: max_tokens of each reply (official default 200)");
}

/** The consultation suites' own flags, then `--provider-module` (last in the help, as before). */
function withConsultAndProviderOptions(command: Command): Command {
  return command
    .option(
      "--patient <id>",
      `consultation suites: the patient, ${EMBEDDED_BACKEND_ID} (deterministic: the case's facts in its words, or a library case's lay script; default) or a backend id (${describeBackendIds({ chatModelsOnly: true })}); the doctor is --backend`,
    )
    .option("--patient-base-url <url>", "consultation suites: the patient backend's server base URL")
    .option(
      "--max-questions <n>",
      `consultation suites: questions before a MediQ doctor must answer (MediQ's --max_questions; default ${DEFAULT_CONSULT_SETTINGS.max_questions})`,
    )
    .option(
      "--max-turns <n>",
      `consultation suites: doctor turns of an AgentClinic or library consultation, test requests and the answer included (AgentClinic's --total_inferences; default ${DEFAULT_CONSULT_SETTINGS.max_turns})`,
    )
    .option(...PROVIDER_MODULE_OPTION);
}

/** The flags that belong to one protocol, refused under the other rather than ignored. */
function checkProtocolFlags(
  flags: BenchFlags,
  protocol: ProtocolName,
  family: SuiteFamily,
  lengths: { maxTokens?: number; contextTokens?: number },
): void {
  if (protocol === "official" && !family.protocols?.includes("official")) {
    const official = SUITE_REGISTRY.families.filter((candidate) => candidate.protocols?.includes("official"));
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--protocol official is for ${official.map((candidate) => candidate.title).join(" and ")} (${official.flatMap((candidate) => SUITE_REGISTRY.wordsOf(candidate)).join(", ")})`,
    );
  }
  // The official pipeline has no fallback, no token budget and its own retrieval: refuse rather than ignore.
  const ours = [
    flags.fallback !== undefined && "--fallback",
    lengths.contextTokens !== undefined && "--context-tokens",
    flags.retrieval !== "bm25" && "--retrieval",
  ].filter(Boolean);
  if (protocol === "official" && ours.length > 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `${ours.join(", ")} belong${ours.length === 1 ? "s" : ""} to --protocol anamnesis; the official protocol has none (retrieval: --embeddings)`,
    );
  if (protocol !== "official" && (flags.embeddings !== undefined || lengths.maxTokens !== undefined))
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      "--embeddings and --max-tokens belong to --protocol official (give --meditod-repo DIR or MEDITOD_REPO too)",
    );
}

/** A backend id's characters that a folder name should not hold, e.g. the `:` of `openai:gpt-4o`. */
const NOT_IN_FOLDER_NAME = /[^A-Za-z0-9._-]+/g;

/** The run directory: `--out`, else `runs/<backend>-[<data>-]<split>[-shard<i>of<n>]`; checked, and emptied on `--restart`. */
function runDirectory(flags: BenchFlags, source: DatasetSource, split: string, shard: Shard | undefined): string {
  const outDir = resolve(
    flags.out ??
      join(
        "runs",
        `${flags.backend.replace(NOT_IN_FOLDER_NAME, "_")}-${source.namedInRunFolder ? `${source.id}-` : ""}${split}${shard ? `-shard${shard.index}of${shard.count}` : ""}`,
      ),
  );
  checkOutputDirectory(outDir, "--out");
  if (flags.restart) clearRunDirectory(outDir);
  return outDir;
}

/** How the modules are asked for: the backend, the protocol and the settings of each protocol. */
function modulesRequest(
  flags: BenchFlags,
  protocol: ProtocolName,
  settings: { exemplars: number; maxTokens?: number; contextTokens?: number; backendOptions: BackendOptions },
): ProtocolModulesRequest {
  const { exemplars, maxTokens, contextTokens, backendOptions } = settings;
  return {
    backendId: flags.backend,
    protocol,
    backendOptions,
    exemplars,
    official: {
      checkoutDir: flags.meditodRepo ?? process.env.MEDITOD_REPO,
      embeddings: flags.embeddings,
      ...(flags.embeddingsBaseUrl ? { embeddingsBaseUrl: flags.embeddingsBaseUrl } : {}),
      ...(maxTokens ? { maxTokens } : {}),
    },
    anamnesis: {
      retrieval: flags.retrieval as "bm25" | "dense",
      ...(contextTokens ? { tokenBudget: contextTokens } : {}),
      ...(flags.fallback ? { fallback: "embedded" as const } : {}),
    },
  };
}

/**
 * The consultation suites' settings from their flags (`--patient`, `--patient-base-url`,
 * `--max-questions`, `--max-turns`), for a family that builds its own roles; those flags are refused
 * for the other suites rather than ignored.
 */
function suiteSettingsOf(flags: BenchFlags, family: SuiteFamily): Record<string, unknown> | undefined {
  const given = [
    flags.patient !== undefined && "--patient",
    flags.patientBaseUrl !== undefined && "--patient-base-url",
    flags.maxQuestions !== undefined && "--max-questions",
    flags.maxTurns !== undefined && "--max-turns",
  ].filter(Boolean);
  if (!family.buildModules) {
    if (given.length > 0)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${given.join(", ")} belong${given.length === 1 ? "s" : ""} to the consultation suites (consult-mediq, consult-agentclinic, consult-library)`,
      );
    return undefined;
  }
  const maxTurns = positiveInteger(flags.maxTurns, "--max-turns");
  if (maxTurns !== undefined && maxTurns < 2)
    throw new AnamnesisError("INVALID_ARGUMENT", "--max-turns must be at least 2 (a question and the answer)");
  return {
    patient: flags.patient ?? DEFAULT_CONSULT_SETTINGS.patient,
    ...(flags.patientBaseUrl ? { patient_base_url: flags.patientBaseUrl } : {}),
    max_questions: positiveInteger(flags.maxQuestions, "--max-questions") ?? DEFAULT_CONSULT_SETTINGS.max_questions,
    max_turns: maxTurns ?? DEFAULT_CONSULT_SETTINGS.max_turns,
  };
}

/** `--exemplars`: a whole number, 0 allowed. */
function parseExemplars(text: string | undefined): number {
  const exemplars = Number(text ?? 5);
  if (!Number.isInteger(exemplars) || exemplars < 0)
    throw new AnamnesisError("INVALID_ARGUMENT", `--exemplars must be a whole number (got '${text}')`);
  return exemplars;
}

/** The flags as a plan, every one checked first (in the order the errors are reported). */
function planBench(flags: BenchFlags): BenchPlan {
  const suites = SUITE_REGISTRY.resolve(flags.suite.flatMap((id) => id.split(",")));
  const source = SUITE_REGISTRY.dataset(SUITE_REGISTRY.dataOf(suites));
  if (flags.retrieval !== "bm25" && flags.retrieval !== "dense")
    throw new AnamnesisError("INVALID_ARGUMENT", `--retrieval must be bm25 or dense (got '${flags.retrieval}')`);
  const limit = positiveInteger(flags.limit, "--limit");
  const concurrency = positiveInteger(flags.concurrency, "--concurrency");
  const timeoutMs = positiveInteger(flags.timeoutMs, "--timeout-ms");
  const exemplars = parseExemplars(flags.exemplars);
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const protocol = chooseProtocol(flags);
  const lengths = {
    maxTokens: positiveInteger(flags.maxTokens, "--max-tokens"),
    contextTokens: positiveInteger(flags.contextTokens, "--context-tokens"),
  };
  const family = SUITE_REGISTRY.get(suites[0]!)!.family;
  checkProtocolFlags(flags, protocol, family, lengths);
  const suiteSettings = suiteSettingsOf(flags, family);
  const dataset = source.load(flags.data);
  const split = flags.split ?? source.defaultSplit(dataset);
  source.checkSplit(dataset, split);
  const backendOptions: BackendOptions = {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(flags.cache === false ? { noCache: true } : {}),
  };
  const outDir = runDirectory(flags, source, split, shard);
  if (flags.fallback !== undefined && flags.fallback !== EMBEDDED_BACKEND_ID)
    throw new AnamnesisError("INVALID_ARGUMENT", `--fallback must be embedded (got '${flags.fallback}')`);
  return {
    suites,
    dataset,
    split,
    outDir,
    ...(limit ? { limit } : {}),
    ...(shard ? { shard } : {}),
    ...(concurrency ? { concurrency } : {}),
    judge: flags.judge,
    models: modelMetricRequest(flags),
    modules: modulesRequest(flags, protocol, { exemplars, ...lengths, backendOptions }),
    ...(suiteSettings ? { suiteSettings } : {}),
  };
}

/** `anamnesis bench`: plans, builds the modules, runs with progress on stderr (Ctrl-C stops it resumably), prints the table. */
async function runBenchCommand(flags: BenchFlags): Promise<void> {
  const plan = planBench(flags);
  const bench = await prepareBench(plan);
  const progress = createProgressReporter();
  const abort = new AbortController();
  // Every request of the run listens to this one signal while it is in flight (up to --concurrency at
  // once): not a leak, so Node's warning past ten listeners is switched off for it.
  setMaxListeners(0, abort.signal);
  const onSignal = () => abort.abort(new AnamnesisError("INVALID_ARGUMENT", "interrupted"));
  process.once("SIGINT", onSignal);
  try {
    const results = await bench.run({ signal: abort.signal, onProgress: (event) => progress.update(event) });
    progress.stop();
    if (flags.json) printJson(results);
    else
      process.stdout.write(
        `${formatResultsTable(results)}\n\nReports: ${join(plan.outDir, "report.md")}, ${join(plan.outDir, "report.html")}\n`,
      );
  } finally {
    progress.stop();
    process.removeListener("SIGINT", onSignal);
    await bench.close();
  }
}

/** Registers `anamnesis merge`: shards' run directories into one run. */
export function registerMergeCommand(program: Command): void {
  program
    .command("merge")
    .description("Combine the run directories of shards into one run, scored and reported.")
    .argument("<dirs...>", "run directories (e.g. shards 1/n … n/n)")
    .requiredOption("--out <dir>", "the merged run directory")
    .option("--data <dir>", "MediTOD directory; default: the one the runs used")
    .option(
      "--allow-partial",
      "merge even when shards or lines are missing (every output then says the run is partial)",
    )
    .option("--json", "print results.json")
    .action(async (dirs: string[], flags: { out: string; data?: string; json?: boolean; allowPartial?: boolean }) => {
      for (const dir of dirs) {
        if (!existsSync(join(dir, "run.json")))
          throw new AnamnesisError("FILE_NOT_FOUND", `${dir} is not a run directory (no run.json)`);
      }
      const results = await mergeRunDirectories(
        dirs.map((dir) => resolve(dir)),
        resolve(flags.out),
        flags.data,
        { allowPartial: flags.allowPartial === true },
      );
      if (results.partial) process.stderr.write(`anamnesis: warning: ${describePartial(results.partial)}\n`);
      if (flags.json) printJson(results);
      else
        process.stdout.write(
          `${results.partial ? `${describePartial(results.partial)}\n\n` : ""}${formatResultsTable(results)}\n`,
        );
    });
}
