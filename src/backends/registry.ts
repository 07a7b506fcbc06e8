/**
 * The `provider:model` registry. A backend id is `<provider>:<model>` — split at the first colon, so
 * `ollama:llama3.1:8b` and `llamacpp:/models/x.gguf` work — or a bare provider name for providers that
 * need no model (`embedded`).
 *
 * Built in (built-in-providers.ts): `openai:<model>`, `ollama:<model>`, `llamacpp:<path to .gguf>`,
 * `langchain:<provider>:<model>` and `embedded`, each loaded only when used. Adding a kind of backend =
 * one driver file + one `registerProvider` call; from outside the repository, a provider module
 * (provider-module.ts) named by `--provider-module` or by the config file's `providers`, which
 * {@link createBackend} loads the first time an id names a provider it does not know yet.
 */
import "./built-in-providers.ts";
import { configuredProviderModules, loadConfig, resolveSettings, type BackendOptions } from "./config.ts";
import { NoSuchModelError, NoSuchProviderError } from "./errors.ts";
import { describeBackendIds, findProvider, listProviders, parseBackendId, usageOfProvider } from "./providers.ts";
import type { ChatBackend } from "./spec.ts";

export {
  describeBackendIds,
  listProviders,
  parseBackendId,
  registerProvider,
  type ProviderFactory,
  type ProviderRegistration,
  type ProviderSettings,
} from "./providers.ts";

/** Registers the provider a config file's `providers` entry defines by module, if it does. */
async function loadConfiguredProvider(provider: string, options: BackendOptions): Promise<boolean> {
  const config = options.config ?? loadConfig(options.configPath, options.env ?? process.env);
  const configured = configuredProviderModules(config).find(({ name }) => name === provider);
  if (!configured) return false;
  const { loadProviderModule } = await import("./provider-module.ts");
  await loadProviderModule(configured.module, { only: provider });
  return true;
}

/**
 * Creates a backend from its id, e.g. `createBackend("openai:gpt-4o-mini", { baseUrl, concurrency: 8 })`.
 * Settings come from `options` (flags), the environment and the config file (see config.ts), each
 * checked against the settings the provider reads.
 * @throws NoSuchProviderError / NoSuchModelError (code NO_SUCH_MODEL) listing the valid id forms.
 */
export async function createBackend(id: string, options: BackendOptions = {}): Promise<ChatBackend> {
  const { provider, model } = parseBackendId(id);
  const entry =
    findProvider(provider) ?? ((await loadConfiguredProvider(provider, options)) ? findProvider(provider) : undefined);
  if (!entry) {
    if (!id.includes(":")) {
      throw new NoSuchModelError(
        id,
        `unknown backend id "${id}": expected provider:model; available: ${describeBackendIds()}`,
      );
    }
    throw new NoSuchProviderError(id, provider, listProviders(), describeBackendIds());
  }
  if (entry.modelRequired !== false && model === "") {
    throw new NoSuchModelError(id, `backend id "${id}" names no model; expected ${usageOfProvider(provider)}`);
  }
  const settings = resolveSettings(id, provider, options, entry.fromEnv);
  return entry.factory(model, settings, id);
}
