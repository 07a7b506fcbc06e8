/**
 * Backend configuration from three sources, highest precedence first:
 * 1. options passed to `createBackend` (the CLI flags),
 * 2. environment variables (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OLLAMA_HOST`, `ANAMNESIS_CACHE_DIR`),
 * 3. the JSON config file: `$ANAMNESIS_CONFIG`, else `$XDG_CONFIG_HOME/anamnesis/config.json`,
 *    else `~/.config/anamnesis/config.json` (a missing default file is fine; a missing
 *    `ANAMNESIS_CONFIG` file is an error).
 *
 * Config file format (every member optional; unknown keys are rejected with their path):
 * ```json
 * {
 *   "cacheDir": "/data/anamnesis-cache",
 *   "defaults":  { "concurrency": 8, "timeoutMs": 120000, "maxRetries": 4, "temperature": 0 },
 *   "providers": {
 *     "openai": { "baseUrl": "http://127.0.0.1:8000/v1", "apiKey": "sk-…", "structuredOutput": "jsonSchema" },
 *     "ollama": { "baseUrl": "http://127.0.0.1:11434", "concurrency": 2 },
 *     "mine": "./my-provider.js",
 *     "other": { "module": "./other-provider.js", "baseUrl": "http://127.0.0.1:9000" }
 *   },
 *   "backends": {
 *     "openai:gpt-4o-mini": { "maxTokens": 512 }
 *   }
 * }
 * ```
 * Within the file, `backends["<id>"]` beats `providers["<provider>"]`, which beats `defaults`.
 * A `providers` entry that is a string, or has a `module`, names a provider module (provider-module.ts)
 * that defines that provider; a relative path is relative to the config file.
 * Every entry takes the {@link BackendSettings} keys. Keep the file private if it holds an `apiKey`.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import type { UsageRecorder } from "./run-record.ts";
import { defaultCacheDir } from "./response-cache.ts";
import { formatPath } from "./structured.ts";

const settingsSchema = z
  .object({
    /** Server base URL: OpenAI-compatible `…/v1`, or the Ollama host. */
    baseUrl: z.string().min(1),
    /** OpenAI-compatible servers only. A dummy key is used for local servers when none is set. */
    apiKey: z.string().min(1),
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

/** Settings of a backend (flags, environment, config file); every key optional. */
export type BackendSettings = z.infer<typeof settingsSchema>;

/** A `providers` entry: settings, a provider module's path, or both (`module` plus settings). */
const providerEntrySchema = z.union([z.string().min(1), settingsSchema.extend({ module: z.string().min(1).optional() })]);

/** A `providers` entry of the config file. */
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

const configSchema = z
  .object({
    cacheDir: z.string().min(1),
    defaults: settingsSchema,
    providers: z.record(z.string(), providerEntrySchema),
    backends: z.record(z.string(), settingsSchema),
  })
  .partial()
  .strict();

/** The JSON config file's content (see the format at the top of config.ts). */
export type AnamnesisConfig = z.infer<typeof configSchema>;

/** Options of `createBackend`: settings (as given by flags) plus run-time objects. */
export interface BackendOptions extends BackendSettings {
  /** Response cache directory (default: see response-cache.ts). */
  cacheDir?: string;
  /** Receives every request's usage and latency; one per run gives per-run format-error rates. */
  recorder?: UsageRecorder;
  /** Environment to read instead of `process.env` (tests). */
  env?: NodeJS.ProcessEnv;
  /** Config file path, instead of `ANAMNESIS_CONFIG` / the default location. */
  configPath?: string;
  /** An already loaded config; skips reading the file. */
  config?: AnamnesisConfig;
  /**
   * Settings a command starts from, below everything the user sets (config file, environment, flags):
   * the chat waits less for a hanging model than a benchmark run does.
   */
  baseline?: BackendSettings;
}

/** Everything a provider factory needs, merged from options, environment and config file. */
export interface ResolvedSettings extends BackendSettings {
  readonly cacheDir: string;
  readonly recorder?: UsageRecorder;
  readonly env: NodeJS.ProcessEnv;
}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "anamnesis", "config.json");
}

/** Reads and validates the config file; `{}` when the default file does not exist. */
export function loadConfig(path?: string, env: NodeJS.ProcessEnv = process.env): AnamnesisConfig {
  const explicit = path ?? env.ANAMNESIS_CONFIG;
  const file = explicit || defaultConfigPath(env);
  if (!existsSync(file)) {
    if (explicit) throw new AnamnesisError("FILE_NOT_FOUND", `config file not found: ${file}`);
    return {};
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${formatPath(issue.path as (string | number)[])}: ${issue.message}`);
    throw new AnamnesisError("INVALID_DATA", `config file ${file}: ${issues.join("; ")}`);
  }
  return withModulesResolved(parsed.data, dirname(file));
}

function isRelativePath(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/** Provider module paths made absolute against the config file's folder, so they mean the same from any working directory. */
function withModulesResolved(config: AnamnesisConfig, dir: string): AnamnesisConfig {
  if (!config.providers) return config;
  const absolute = (specifier: string) => (isRelativePath(specifier) ? resolve(dir, specifier) : specifier);
  const providers = Object.fromEntries(
    Object.entries(config.providers).map(([name, entry]) => [
      name,
      typeof entry === "string" ? absolute(entry) : entry.module === undefined ? entry : { ...entry, module: absolute(entry.module) },
    ]),
  );
  return { ...config, providers };
}

/** The provider modules a config names, by provider name. */
export function configuredProviderModules(config: AnamnesisConfig): Array<{ name: string; module: string }> {
  return Object.entries(config.providers ?? {}).flatMap(([name, entry]) => {
    const module = typeof entry === "string" ? entry : entry.module;
    return module === undefined ? [] : [{ name, module }];
  });
}

/** The settings part of a `providers` entry. */
function providerSettings(entry: ProviderEntry | undefined): BackendSettings {
  if (entry === undefined || typeof entry === "string") return {};
  const { module: _module, ...settings } = entry;
  return settings;
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/**
 * Merges the sources for one backend id. `fromEnv` maps the environment to the provider's settings
 * (e.g. `OPENAI_BASE_URL` → `baseUrl`).
 */
export function resolveSettings(
  id: string,
  provider: string,
  options: BackendOptions,
  fromEnv?: (env: NodeJS.ProcessEnv) => BackendSettings,
): ResolvedSettings {
  const { recorder, env: givenEnv, configPath, config: givenConfig, cacheDir, baseline, ...flags } = options;
  const env = givenEnv ?? process.env;
  const config = givenConfig ?? loadConfig(configPath, env);
  const merged: BackendSettings = {
    ...defined(baseline ?? {}),
    ...defined(config.defaults ?? {}),
    ...defined(providerSettings(config.providers?.[provider])),
    ...defined(config.backends?.[id] ?? {}),
    ...defined(fromEnv?.(env) ?? {}),
    ...defined(flags),
  };
  const checked = settingsSchema.safeParse(merged);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${formatPath(issue.path as (string | number)[])}: ${issue.message}`);
    throw new AnamnesisError("INVALID_ARGUMENT", `backend ${id}: ${issues.join("; ")}`);
  }
  return {
    ...checked.data,
    cacheDir: cacheDir ?? (env.ANAMNESIS_CACHE_DIR || config.cacheDir || defaultCacheDir(env)),
    env,
    ...(recorder ? { recorder } : {}),
  };
}

const SECRET_QUERY_KEYS = /key|token|secret|sig|password|auth/i;

/** A URL safe to log and record: no user/password, secret-looking query values replaced. */
export function sanitizeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_QUERY_KEYS.test(key)) parsed.searchParams.set(key, "REDACTED");
    }
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}
