import type { Command } from "commander";

/**
 * `--provider-module <path...>` on every command that creates backends (bench, chat, simulate, score
 * --judge): ES modules whose default export defines more providers (backends/provider-module.ts). The
 * program's preAction hook loads them before the command runs, so their `name:` ids work like the
 * built-in ones; for `--help` they are loaded before the command is built, so that their ids show in
 * the help of the options that take a backend id.
 */
export const PROVIDER_MODULE_OPTION = [
  "--provider-module <path...>",
  "ES module(s) adding backend providers (default export: defineProvider({ name, create })); relative to the working directory",
] as const;

/** The `--provider-module` values of an argument list, read as commander reads a variadic option. */
function providerModulePaths(argv: readonly string[]): string[] {
  const paths: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg.startsWith("--provider-module=")) paths.push(arg.slice("--provider-module=".length));
    if (arg !== "--provider-module") continue;
    while (index + 1 < argv.length && !argv[index + 1]!.startsWith("-")) paths.push(argv[++index]!);
  }
  return paths;
}

/**
 * For a help request, registers the providers that the command line's `--provider-module` and the
 * config file's `providers` define, so that the help lists their ids. A module that fails to load
 * is left out: the help still prints, and running the command reports the failure.
 */
export async function loadProvidersForHelp(argv: readonly string[]): Promise<void> {
  if (!argv.includes("--help") && !argv.includes("-h") && argv[0] !== "help") return;
  const { loadProviderModule } = await import("../../src/backends/provider-module.ts");
  const { configuredProviderModules, loadConfig } = await import("../../src/backends/config.ts");
  const configured = (() => {
    try {
      return configuredProviderModules(loadConfig());
    } catch {
      return [];
    }
  })();
  for (const { name, module } of configured) await loadProviderModule(module, { only: name }).catch(() => undefined);
  for (const path of providerModulePaths(argv)) await loadProviderModule(path).catch(() => undefined);
}

/** Loads the provider modules the command about to run was given. */
export async function loadProviderModulesOf(command: Command): Promise<void> {
  const paths = command.opts<{ providerModule?: string[] }>().providerModule;
  if (!paths || paths.length === 0) return;
  const { loadProviderModules } = await import("../../src/backends/provider-module.ts");
  await loadProviderModules(paths);
}
