/**
 * Backends from outside the repository: a provider module is an ES module whose default export
 * defines one provider (or a list of them). Named on the command line (`--provider-module
 * ./my-provider.js`) or in the config file (`"providers": {"mine": "./my-provider.js"}`), it registers
 * its `name:` prefix for every command, exactly as the built-in `openai:` or `ollama:` are.
 *
 * ```js
 * // my-provider.js — written only against the public API
 * import { createChatBackend, defineProvider } from "anamnesis";
 * import { z } from "zod";
 * export default defineProvider({
 *   name: "mine",
 *   usage: "mine:<model>",
 *   settings: z.object({ region: z.string() }),   // besides the common ones; checked in the config file
 *   create: (model, settings) => createChatBackend(myDriver(model, settings.region), settings),
 * });
 * ```
 * The module registers nothing itself: we register what it exports, so a plug-in that resolves its own
 * copy of `anamnesis` still lands in the registry of the copy that runs the command.
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { AnamnesisError } from "../foundation/errors.ts";
import type * as z from "zod";
import {
  registerProvider,
  type ProviderFactory,
  type ProviderRegistration,
  type ProviderSettings,
} from "./providers.ts";
import type { backendSettingsSchema } from "./settings.ts";
import { importExternal } from "../foundation/external-import.ts";

/** One provider as a module exports it: its registration (usage, settings, environment) plus name and factory. */
export interface ProviderDefinition<
  Own extends z.ZodObject = typeof backendSettingsSchema,
> extends ProviderRegistration<Own> {
  /** The id prefix: `name:<model>`, or the bare name when `modelRequired` is false. */
  readonly name: string;
  /** Builds a backend for the model named after the prefix (see {@link ProviderFactory}), given the common settings and the provider's own. */
  readonly create: ProviderFactory<ProviderSettings<Own>>;
}

/** Types a provider definition (its factory's settings from its `settings` schema); returns it unchanged. */
export function defineProvider<Own extends z.ZodObject = typeof backendSettingsSchema>(
  definition: ProviderDefinition<Own>,
): ProviderDefinition<Own> {
  return definition;
}

function isDefinition(value: unknown): value is ProviderDefinition {
  if (value === null || typeof value !== "object") return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.name === "string" && typeof candidate.create === "function";
}

/**
 * A specifier as `import()` needs it: a path (relative to `baseDir`, or any existing file, so
 * `examples/x.js` works as typed) becomes a file URL; anything else is a package name.
 */
function moduleUrl(specifier: string, baseDir: string): string {
  const path = resolve(baseDir, specifier);
  const isPath = specifier.startsWith(".") || isAbsolute(specifier) || existsSync(path);
  if (!isPath) return specifier;
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `provider module not found: ${path}`);
  return pathToFileURL(path).href;
}

/**
 * Imports a provider module and registers the providers its default export defines.
 * @param specifier a path (relative to `baseDir`) or a package name.
 * @param options.only registers only the definition of this name (the key of the config file's
 *   `providers` entry), which the module must define.
 * @returns the names registered.
 * @throws AnamnesisError (exit code 2 in the CLI) when the module cannot be loaded or defines no provider.
 */
export async function loadProviderModule(
  specifier: string,
  options: { baseDir?: string; only?: string } = {},
): Promise<string[]> {
  const url = moduleUrl(specifier, options.baseDir ?? process.cwd());
  let loaded: { default?: unknown };
  try {
    loaded = await importExternal<{ default?: unknown }>(url);
  } catch (error) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `cannot load provider module ${specifier}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const exported = loaded.default;
  const definitions = Array.isArray(exported) ? exported : [exported];
  if (definitions.length === 0 || !definitions.every(isDefinition)) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `provider module ${specifier} must export default a provider definition {name, create} (or a list of them); see defineProvider`,
    );
  }
  const chosen = options.only === undefined ? definitions : definitions.filter(({ name }) => name === options.only);
  if (chosen.length === 0) {
    const names = definitions.map(({ name }) => name).join(", ");
    throw new AnamnesisError("INVALID_ARGUMENT", `provider module ${specifier} defines ${names}, not ${options.only}`);
  }
  return chosen.map(({ name, create, ...registration }: ProviderDefinition<z.ZodObject>) => {
    registerProvider(name, create, registration);
    return name;
  });
}

/** Loads several provider modules in order (a later one may replace an earlier provider). */
export async function loadProviderModules(specifiers: readonly string[], baseDir?: string): Promise<string[]> {
  const names: string[] = [];
  for (const specifier of specifiers)
    names.push(...(await loadProviderModule(specifier, baseDir === undefined ? {} : { baseDir })));
  return names;
}
