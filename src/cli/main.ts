import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { isAnamnesisError } from "../errors.ts";
import { bundledPath } from "../package-paths.ts";
import { COMMANDS, selectedCommand } from "./command-table.ts";
import { loadProviderModulesOf } from "./provider-module-option.ts";

/** The package's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(bundledPath("package.json"), "utf8")) as { version: string }).version;
}

/**
 * Builds the `anamnesis` command for one argument list: the command it runs is loaded and registered
 * in full; every other command is a name and a description, enough for `--help`.
 */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command("anamnesis")
    .description("Medical history-taking dialogue: the MediTOD pipeline, benchmark suites and chat.")
    .version(packageVersion(), "-V, --version", "print the version")
    .exitOverride()
    .hook("preAction", (_program, command) => loadProviderModulesOf(command));
  const selected = selectedCommand(argv);
  for (const [name, entry] of Object.entries(COMMANDS)) {
    if (name === selected) (await entry.load())(program);
    else program.command(name).description(entry.description).helpOption(false).allowUnknownOption().allowExcessArguments();
  }
  return program;
}

/** Runs the CLI; user errors become one line on stderr and exit code 2. */
export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (or the help text).
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isAnamnesisError(error)) {
      process.stderr.write(`anamnesis: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`anamnesis: internal error: ${message}\n`);
    return 1;
  }
}
