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
 *
 * Each section takes the settings its provider reads (the provider's registration declares them,
 * settings.ts lists the built-in ones): `providers.openai` and `backends["openai:…"]` take openai's,
 * `defaults` any provider's (each backend takes from it what its provider reads). The section of a
 * provider that a module in the file defines is checked when the module is loaded, on first use.
 * Keep the file private if it holds an `apiKey`.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import "./built-in-providers.ts";
import { anyProviderSettingsSchema, findProvider, parseBackendId, settingsSchemaOf } from "./providers.ts";
import { defaultCacheDir } from "./response-cache.ts";
import type { UsageRecorder } from "./run-record.ts";
import { backendSettingsSchema, type BackendSettings, type ResolvedSettings } from "./settings.ts";
import { formatPath } from "./structured.ts";

/** A `providers` entry: settings, a provider module's path, or both (`module` plus settings). */
const providerEntrySchema = z.union([
  z.string().min(1),
  backendSettingsSchema.extend({ module: z.string().min(1).optional() }),
]);

/** A `providers` entry of the config file. */
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

/** The JSON config file's content (see the format at the top of config.ts). */
export interface AnamnesisConfig {
  cacheDir?: string;
  defaults?: BackendSettings;
  providers?: Record<string, ProviderEntry>;
  backends?: Record<string, BackendSettings>;
}

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

/** `$XDG_CONFIG_HOME/anamnesis/config.json`, else `~/.config/anamnesis/config.json`. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "anamnesis", "config.json");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function namesModule(entry: unknown): boolean {
  return typeof entry === "string" || (isRecord(entry) && "module" in entry);
}

/**
 * The settings a section for `provider` may hold: the provider's own when it is registered; any
 * built-in setting plus whatever else when a module in the same file defines it (checked again once
 * the module is loaded); the built-in settings otherwise.
 */
function sectionSchema(provider: string, definedByModule: boolean): z.ZodObject {
  if (definedByModule) return backendSettingsSchema.loose();
  return findProvider(provider) ? settingsSchemaOf(provider) : backendSettingsSchema;
}

/** A schema for a section keyed by provider or backend id: each key's own, in the file's order. */
function keyedSchema(
  section: unknown,
  schemaOf: (key: string, value: unknown) => z.ZodType,
  otherwise: z.ZodType,
): z.ZodType {
  if (!isRecord(section)) return z.record(z.string(), otherwise);
  return z.object(Object.fromEntries(Object.entries(section).map(([key, value]) => [key, schemaOf(key, value)])));
}

/** The schema `data` must pass: each section checked by the settings its provider reads. */
function configSchemaFor(data: unknown): z.ZodType<AnamnesisConfig> {
  const providers = isRecord(data) ? data.providers : undefined;
  const byModule = new Set(
    isRecord(providers) ? Object.keys(providers).filter((name) => namesModule(providers[name])) : [],
  );
  const moduleEntry = z.string().min(1).optional();
  return z
    .object({
      cacheDir: z.string().min(1),
      defaults: anyProviderSettingsSchema(),
      providers: keyedSchema(
        providers,
        (name, entry) =>
          z.union([z.string().min(1), sectionSchema(name, namesModule(entry)).extend({ module: moduleEntry })]),
        providerEntrySchema,
      ),
      backends: keyedSchema(
        isRecord(data) ? data.backends : undefined,
        (id) => sectionSchema(parseBackendId(id).provider, byModule.has(parseBackendId(id).provider)),
        backendSettingsSchema,
      ),
    })
    .partial()
    .strict() as z.ZodType<AnamnesisConfig>;
}

/** One line of zod issues with their paths, as every settings error shows them. */
function describeZodIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatPath(issue.path as (string | number)[])}: ${issue.message}`).join("; ");
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
  const parsed = configSchemaFor(data).safeParse(data);
  if (!parsed.success)
    throw new AnamnesisError("INVALID_DATA", `config file ${file}: ${describeZodIssues(parsed.error)}`);
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
      typeof entry === "string"
        ? absolute(entry)
        : entry.module === undefined
          ? entry
          : { ...entry, module: absolute(entry.module) },
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

/** Only the members that are set. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/**
 * `values` without the settings only other providers read: the flags, a command's baseline and the
 * config's `defaults` speak to every provider, and each takes what it reads. A name no provider
 * knows stays, for the check to reject.
 */
function withoutOthersSettings(values: object, schema: z.ZodObject): object {
  const everyone = anyProviderSettingsSchema().shape;
  return Object.fromEntries(Object.entries(values).filter(([name]) => name in schema.shape || !(name in everyone)));
}

/**
 * Merges the sources for one backend id and checks them against the settings its provider reads.
 * `fromEnv` maps the environment to the provider's settings (e.g. `OPENAI_BASE_URL` → `baseUrl`).
 */
export function resolveSettings(
  id: string,
  provider: string,
  options: BackendOptions,
  fromEnv?: (env: NodeJS.ProcessEnv) => object,
): ResolvedSettings {
  const { recorder, env: givenEnv, configPath, config: givenConfig, cacheDir, baseline, ...flags } = options;
  const env = givenEnv ?? process.env;
  const config = givenConfig ?? loadConfig(configPath, env);
  const schema = settingsSchemaOf(provider);
  const merged = {
    ...defined(withoutOthersSettings(baseline ?? {}, schema)),
    ...defined(withoutOthersSettings(config.defaults ?? {}, schema)),
    ...defined(providerSettings(config.providers?.[provider])),
    ...defined(config.backends?.[id] ?? {}),
    ...defined(fromEnv?.(env) ?? {}),
    ...defined(withoutOthersSettings(flags, schema)),
  };
  const checked = schema.safeParse(merged);
  if (!checked.success)
    throw new AnamnesisError("INVALID_ARGUMENT", `backend ${id}: ${describeZodIssues(checked.error)}`);
  return {
    ...(checked.data as BackendSettings),
    cacheDir: cacheDir ?? (env.ANAMNESIS_CACHE_DIR || config.cacheDir || defaultCacheDir(env)),
    env,
    ...(recorder ? { recorder } : {}),
  };
}
