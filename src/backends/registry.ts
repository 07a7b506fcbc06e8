/**
 * The `provider:model` registry. A backend id is `<provider>:<model>` — split at the first colon, so
 * `ollama:llama3.1:8b` and `llamacpp:/models/x.gguf` work — or a bare provider name for providers that
 * need no model (`embedded`).
 *
 * Built in: `openai:<model>`, `ollama:<model>`, `llamacpp:<path to .gguf>`, `langchain:<provider>:<model>`
 * and `embedded`, each loaded only when used. Adding a kind of backend = one driver file + one
 * `registerProvider` call; from outside the repository, a provider module (provider-module.ts) named
 * by `--provider-module` or by the config file's `providers`, which {@link createBackend} loads the
 * first time an id names a provider it does not know yet.
 */
import { AnamnesisError } from "../foundation/errors.ts";
import { configuredProviderModules, loadConfig, resolveSettings, type BackendOptions, type BackendSettings, type ResolvedSettings } from "./config.ts";
import { NoSuchModelError, NoSuchProviderError } from "./errors.ts";
import type { ChatBackend } from "./spec.ts";

/** Builds a backend for `model` (the part after `provider:`, "" for a bare provider id). */
export type ProviderFactory = (model: string, settings: ResolvedSettings, id: string) => ChatBackend | Promise<ChatBackend>;

/** How a provider's ids look and are configured, given to {@link registerProvider}. */
export interface ProviderRegistration {
  /** How ids of this provider look, for error messages, e.g. `openai:<model>`. */
  readonly usage?: string;
  /** False for providers whose id is the bare name (`embedded`). Default true. */
  readonly modelRequired?: boolean;
  /** Environment variables that configure this provider (below flags, above the config file). */
  readonly fromEnv?: (env: NodeJS.ProcessEnv) => BackendSettings;
}

interface ProviderEntry extends ProviderRegistration {
  readonly factory: ProviderFactory;
}

const providers = new Map<string, ProviderEntry>();

/**
 * Registers (or replaces) a provider: ids `name:<model>` (or the bare `name`, when
 * `registration.modelRequired` is false) are then built by `factory`.
 */
export function registerProvider(name: string, factory: ProviderFactory, registration: ProviderRegistration = {}): void {
  if (!/^[a-z][a-z0-9_-]*$/.test(name)) throw new AnamnesisError("INVALID_ARGUMENT", `invalid provider name "${name}"`);
  providers.set(name, { ...registration, factory });
}

/** The names of the registered providers. */
export function listProviders(): string[] {
  return [...providers.keys()];
}

function usageList(except?: string): string {
  return [...providers.entries()]
    .filter(([name]) => name !== except)
    .map(([name, entry]) => entry.usage ?? (entry.modelRequired === false ? name : `${name}:<model>`))
    .join(", ");
}

/** Splits a backend id at its first colon: `ollama:llama3.1:8b` → provider `ollama`, model `llama3.1:8b`. */
export function parseBackendId(id: string): { provider: string; model: string } {
  const colon = id.indexOf(":");
  return colon < 0 ? { provider: id.trim(), model: "" } : { provider: id.slice(0, colon).trim(), model: id.slice(colon + 1).trim() };
}

/** Registers the provider a config file's `providers` entry defines by module, if it does. */
async function loadConfiguredProvider(provider: string, options: BackendOptions): Promise<ProviderEntry | undefined> {
  const config = options.config ?? loadConfig(options.configPath, options.env ?? process.env);
  const configured = configuredProviderModules(config).find(({ name }) => name === provider);
  if (!configured) return undefined;
  const { loadProviderModule } = await import("./provider-module.ts");
  await loadProviderModule(configured.module, { only: provider });
  return providers.get(provider);
}

/**
 * Creates a backend from its id, e.g. `createBackend("openai:gpt-4o-mini", { baseUrl, concurrency: 8 })`.
 * Settings come from `options` (flags), the environment and the config file (see config.ts).
 * @throws NoSuchProviderError / NoSuchModelError (code NO_SUCH_MODEL) listing the valid id forms.
 */
export async function createBackend(id: string, options: BackendOptions = {}): Promise<ChatBackend> {
  const { provider, model } = parseBackendId(id);
  const entry = providers.get(provider) ?? (await loadConfiguredProvider(provider, options));
  if (!entry) {
    if (!id.includes(":")) {
      throw new NoSuchModelError(id, `unknown backend id "${id}": expected provider:model; available: ${usageList()}`);
    }
    throw new NoSuchProviderError(id, provider, listProviders(), usageList());
  }
  if (entry.modelRequired !== false && model === "") {
    throw new NoSuchModelError(id, `backend id "${id}" names no model; expected ${entry.usage ?? `${provider}:<model>`}`);
  }
  const settings = resolveSettings(id, provider, options, entry.fromEnv);
  return entry.factory(model, settings, id);
}

registerProvider("openai", async (model, settings) => (await import("./openai.ts")).createOpenAIBackend(model, settings), {
  usage: "openai:<model> (OpenAI-compatible server)",
  fromEnv: (env) => ({
    ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  }),
});

registerProvider("ollama", async (model, settings) => (await import("./ollama.ts")).createOllamaBackend(model, settings), {
  usage: "ollama:<model>",
  fromEnv: (env) => (env.OLLAMA_HOST ? { baseUrl: env.OLLAMA_HOST } : {}),
});

registerProvider("llamacpp", async (model, settings) => (await import("./llamacpp.ts")).createLlamaCppBackend(model, settings), {
  usage: "llamacpp:<path to .gguf>",
});

registerProvider("langchain", async (model, settings, id) => (await import("./langchain-universal.ts")).createLangChainBackend(model, settings, id), {
  usage: "langchain:<provider>:<model> (any installed LangChain chat-model integration)",
});

registerProvider("embedded", async (model, settings, id) => (await import("./embedded.ts")).createEmbeddedBackend(model, settings, id), {
  usage: "embedded",
  modelRequired: false,
});
