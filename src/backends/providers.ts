/**
 * The registered providers, by name: how each one's backend ids look (`usage`, for help texts and
 * error messages), the settings it reads (a zod object, checked by config.ts), the environment
 * variables that set them, and the factory that builds its backends. The built-in providers register
 * in built-in-providers.ts, plug-ins through provider-module.ts; registry.ts turns an id into a backend.
 */
import type * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import {
  backendSettingsSchema,
  providerSettingsSchema,
  type BackendSettings,
  type CommonSettings,
  type ResolvedSettings,
} from "./settings.ts";
import type { ChatBackend } from "./spec.ts";

/** The settings a provider with its own settings `Own` is given: the common ones and its own, every one optional. */
export type ProviderSettings<Own extends z.ZodObject> = CommonSettings & Partial<z.output<Own>>;

/**
 * Builds a backend for `model` (the part after `provider:`, "" for a bare provider id) from the
 * provider's settings (`S`: every built-in setting for a provider that declares none).
 */
export type ProviderFactory<S extends object = BackendSettings> = (
  model: string,
  settings: ResolvedSettings<S>,
  id: string,
) => ChatBackend | Promise<ChatBackend>;

/** How a provider's ids look and are configured, given to {@link registerProvider}. */
export interface ProviderRegistration<Own extends z.ZodObject = z.ZodObject> {
  /** How ids of this provider look, for `--help` and error messages, e.g. `openai:<model>`. */
  readonly usage?: string;
  /** False for providers whose id is the bare name (`embedded`). Default true. */
  readonly modelRequired?: boolean;
  /**
   * False for a provider whose backends answer no free-text prompt (`embedded`, the offline engine):
   * it is left out of the ids listed where a command needs a chat model, such as an LLM judge. Default true.
   */
  readonly chatModel?: boolean;
  /**
   * The settings this provider reads besides the common ones (generation defaults, retries,
   * concurrency, timeout, cache), as a zod object: its config-file sections, environment variables and
   * flags are checked against them, and settings only other providers read are left out. Without it
   * the provider is given every built-in setting ({@link BackendSettings}).
   */
  readonly settings?: Own;
  /** Environment variables that configure this provider (below flags, above the config file). */
  readonly fromEnv?: (env: NodeJS.ProcessEnv) => Partial<ProviderSettings<Own>>;
}

/** A provider as the registry keeps it. */
interface RegisteredProvider {
  readonly usage?: string;
  readonly modelRequired?: boolean;
  readonly chatModel?: boolean;
  /** Every setting the provider reads, common ones included; strict. */
  readonly settingsSchema: z.ZodObject;
  readonly fromEnv?: (env: NodeJS.ProcessEnv) => object;
  readonly factory: ProviderFactory<object>;
}

const providers = new Map<string, RegisteredProvider>();

/**
 * Registers (or replaces) a provider: ids `name:<model>` (or the bare `name`, when
 * `registration.modelRequired` is false) are then built by `factory`.
 */
export function registerProvider<Own extends z.ZodObject = typeof backendSettingsSchema>(
  name: string,
  factory: ProviderFactory<ProviderSettings<Own>>,
  registration: ProviderRegistration<Own> = {},
): void {
  if (!/^[a-z][a-z0-9_-]*$/.test(name)) throw new AnamnesisError("INVALID_ARGUMENT", `invalid provider name "${name}"`);
  const { settings, ...rest } = registration;
  providers.set(name, {
    ...rest,
    settingsSchema: settings ? providerSettingsSchema(settings) : backendSettingsSchema,
    factory,
  });
}

/** The names of the registered providers. */
export function listProviders(): string[] {
  return [...providers.keys()];
}

/** The registered provider `name`, if any. */
export function findProvider(name: string): RegisteredProvider | undefined {
  return providers.get(name);
}

/** Everything provider `name` reads (every built-in setting for a provider not registered). */
export function settingsSchemaOf(name: string): z.ZodObject {
  return providers.get(name)?.settingsSchema ?? backendSettingsSchema;
}

/** The settings some registered provider reads: what the config file's `defaults` may hold. */
export function anyProviderSettingsSchema(): z.ZodObject {
  const pluginSettings: Record<string, z.ZodType> = {};
  for (const { settingsSchema } of providers.values()) {
    for (const [name, schema] of Object.entries(settingsSchema.shape)) {
      if (!(name in backendSettingsSchema.shape)) pluginSettings[name] ??= schema as z.ZodType;
    }
  }
  return backendSettingsSchema.extend(pluginSettings).strict();
}

/** How an id of a registered provider looks: its `usage`, else `name:<model>` (or the bare name). */
function usageOf(name: string, provider: RegisteredProvider): string {
  return provider.usage ?? (provider.modelRequired === false ? name : `${name}:<model>`);
}

/**
 * The backend ids the registered providers take, for `--help` and error messages:
 * `openai:<model> (OpenAI-compatible server), ollama:<model>, …`. Plug-ins appear once registered.
 * @param options.chatModelsOnly leave out the providers that answer no free-text prompt (see {@link ProviderRegistration.chatModel}).
 */
export function describeBackendIds(options: { readonly chatModelsOnly?: boolean } = {}): string {
  return [...providers.entries()]
    .filter(([, provider]) => !options.chatModelsOnly || provider.chatModel !== false)
    .map(([name, provider]) => usageOf(name, provider))
    .join(", ");
}

/** How ids of provider `name` look (`name:<model>` for a provider not registered). */
export function usageOfProvider(name: string): string {
  const provider = providers.get(name);
  return provider ? usageOf(name, provider) : `${name}:<model>`;
}

/** Splits a backend id at its first colon: `ollama:llama3.1:8b` → provider `ollama`, model `llama3.1:8b`. */
export function parseBackendId(id: string): { provider: string; model: string } {
  const colon = id.indexOf(":");
  return colon < 0
    ? { provider: id.trim(), model: "" }
    : { provider: id.slice(0, colon).trim(), model: id.slice(colon + 1).trim() };
}
