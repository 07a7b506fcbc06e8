/**
 * Backend settings: what each one means (the catalogue below, one definition per name), which ones
 * every provider reads (the common settings: generation defaults and the middleware's), and which
 * ones each built-in provider reads besides. A provider registration declares its own settings as a
 * zod object (providers.ts); the config file's sections, the environment and the flags are checked
 * against them (config.ts).
 */
import * as z from "zod";
import type { UsageRecorder } from "./run-record.ts";

/**
 * Every setting a built-in provider reads, in the order error messages list them. Keep each name to
 * one meaning across providers: `baseUrl` is where the server is, whichever protocol it speaks.
 */
const catalogue = z
  .object({
    /** Server base URL: OpenAI-compatible `…/v1`, the Ollama host, or a LangChain integration's server. */
    baseUrl: z.string().min(1),
    /** OpenAI-compatible servers and LangChain integrations. A dummy key is used for local servers when none is set. */
    apiKey: z.string().min(1),
    /** OpenAI: the organization and project the requests are billed to (`OpenAI-Organization`, `OpenAI-Project` headers). */
    organization: z.string().min(1),
    project: z.string().min(1),
    temperature: z.number().min(0).max(2),
    maxTokens: z.number().int().positive(),
    seed: z.number().int(),
    /** Requests in flight at once, per backend instance. */
    concurrency: z.number().int().positive(),
    /** Per-attempt timeout. */
    timeoutMs: z.number().int().positive(),
    maxRetries: z.number().int().min(0),
    retryBaseDelayMs: z.number().int().min(0),
    retryMaxDelayMs: z.number().int().min(0),
    structuredOutput: z.enum(["jsonSchema", "functionCalling", "jsonMode", "prompt"]),
    /** OpenAI-compatible servers: use SSE streaming for every request. */
    streaming: z.boolean(),
    /** Model used by `embed` (default: the chat model). */
    embeddingModel: z.string().min(1),
    /** Do not use the response cache at all. */
    noCache: z.boolean(),
    /** llamacpp / ollama: context size in tokens. */
    contextSize: z.number().int().positive(),
    /** llamacpp: false runs on the CPU only; unset or true lets node-llama-cpp pick a GPU. */
    gpu: z.boolean(),
    /** llamacpp: CPU threads (default: node-llama-cpp's choice). Use 1 for tiny models. */
    threads: z.number().int().positive(),
  })
  .partial()
  .strict();

/** Every setting some built-in provider reads (flags, environment, config file); every key optional. */
export type BackendSettings = z.infer<typeof catalogue>;

/** The name of a built-in setting. */
type SettingName = keyof BackendSettings;

const CATALOGUE_ORDER = Object.keys(catalogue.shape) as SettingName[];

/** What every provider reads, whatever its model: generation defaults, retries, concurrency, timeout, cache. */
const COMMON: readonly SettingName[] = [
  "temperature",
  "maxTokens",
  "seed",
  "concurrency",
  "timeoutMs",
  "maxRetries",
  "retryBaseDelayMs",
  "retryMaxDelayMs",
  "structuredOutput",
  "noCache",
];

/** The catalogue's definitions of `names`, in the catalogue's order. */
function pick<const K extends SettingName>(
  names: readonly K[],
): z.ZodObject<Pick<typeof catalogue.shape, K>, z.core.$strict> {
  const mask = Object.fromEntries(
    CATALOGUE_ORDER.filter((name) => names.includes(name as K)).map((name) => [name, true as const]),
  ) as Partial<Record<SettingName, true>>;
  // zod types `pick` for a literal mask; this one is built, so its type is restated.
  return catalogue.pick(mask);
}

/** The settings every provider reads (see `COMMON`). */
export const commonSettingsSchema = pick(COMMON);
/** Settings every provider reads: generation defaults, retries, concurrency, timeout, response cache. */
export type CommonSettings = z.infer<typeof commonSettingsSchema>;

/** `openai:`'s own settings. */
export const openaiSettingsSchema = pick([
  "baseUrl",
  "apiKey",
  "organization",
  "project",
  "streaming",
  "embeddingModel",
]);
/** What the `openai:` provider reads: the common settings, the server, its key, streaming, the embedding model. */
export type OpenAISettings = CommonSettings & z.infer<typeof openaiSettingsSchema>;

/** `ollama:`'s own settings. */
export const ollamaSettingsSchema = pick(["baseUrl", "embeddingModel", "contextSize"]);
/** What the `ollama:` provider reads: the common settings, the host, the embedding model, the context size. */
export type OllamaSettings = CommonSettings & z.infer<typeof ollamaSettingsSchema>;

/** `llamacpp:`'s own settings. */
export const llamaCppSettingsSchema = pick(["contextSize", "gpu", "threads"]);
/** What the `llamacpp:` provider reads: the common settings, the context size, GPU or CPU, CPU threads. */
export type LlamaCppSettings = CommonSettings & z.infer<typeof llamaCppSettingsSchema>;

/** `langchain:`'s own settings. */
export const langChainSettingsSchema = pick(["baseUrl", "apiKey"]);
/** What the `langchain:` provider reads: the common settings, and the integration's server and key. */
export type LangChainSettings = CommonSettings & z.infer<typeof langChainSettingsSchema>;

/** Every built-in setting: what a provider that declares none of its own is given (as before providers declared theirs). */
export const backendSettingsSchema = catalogue;

/**
 * The schema a provider's merged settings must pass: the common settings and the provider's own, all
 * optional, nothing else. Built-in names keep the catalogue's order, so error messages list problems
 * as they always have; a provider's other settings follow in its own order.
 */
export function providerSettingsSchema(own: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = { ...commonSettingsSchema.shape, ...own.shape };
  const rank = (name: string) => {
    const index = CATALOGUE_ORDER.indexOf(name as SettingName);
    return index < 0 ? CATALOGUE_ORDER.length : index;
  };
  const ordered = Object.keys(shape).sort((a, b) => rank(a) - rank(b));
  return z
    .object(Object.fromEntries(ordered.map((name) => [name, shape[name]!])))
    .partial()
    .strict();
}

/** Everything a provider factory is given: its settings merged from flags, environment and config file, and where to cache. */
export type ResolvedSettings<S extends object = BackendSettings> = S & {
  readonly cacheDir: string;
  readonly recorder?: UsageRecorder;
  readonly env: NodeJS.ProcessEnv;
};
