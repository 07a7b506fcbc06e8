import type { Command } from "commander";

/**
 * `--provider-module <path...>` on every command that creates backends (bench, chat, score --judge):
 * ES modules whose default export defines more providers (backends/provider-module.ts). The program's
 * preAction hook loads them before the command runs, so their `name:` ids work like the built-in ones.
 */
export const PROVIDER_MODULE_OPTION = [
  "--provider-module <path...>",
  "ES module(s) adding backend providers (default export: defineProvider({ name, create })); relative to the working directory",
] as const;

/** Loads the provider modules the command about to run was given. */
export async function loadProviderModulesOf(command: Command): Promise<void> {
  const paths = command.opts<{ providerModule?: string[] }>().providerModule;
  if (!paths || paths.length === 0) return;
  const { loadProviderModules } = await import("../../src/backends/provider-module.ts");
  await loadProviderModules(paths);
}
