import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { isAnamnesisError } from "../src/foundation/errors.ts";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { COMMANDS, selectedCommand } from "./command-table.ts";
// The code-cached launcher (bin/code-cache.js) lends the CLI its own import().
export { lendExternalImport } from "../src/foundation/external-import.ts";
import { loadProviderModulesOf, loadProvidersForHelp } from "./shared/provider-module-option.ts";

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
  if (selected) (await import("./shared/zod-jitless.ts")).validateWithoutCodeGeneration();
  if (selected) await loadProvidersForHelp(argv);
  for (const [name, entry] of Object.entries(COMMANDS)) {
    if (name === selected) (await entry.load())(program);
    else
      program
        .command(name)
        .description(entry.description)
        .helpOption(false)
        .allowUnknownOption()
        .allowExcessArguments();
  }
  return program;
}

/** What Node's file-system error codes mean for a path the user gave. */
const FILE_ERRORS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "a part of the path is a file, not a directory",
  EEXIST: "already exists (as a file where a directory is needed, or the reverse)",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EMFILE: "too many open files",
  ENAMETOOLONG: "file name too long",
};

/**
 * A file-system error about a path (a directory given as a file, a file where `--out` needs a folder,
 * a full disk…) is the user's to fix: one line naming the path, exit 2, never "internal error".
 */
function describeFileError(error: unknown): string | null {
  const { code, path, dest } = (error ?? {}) as NodeJS.ErrnoException & { dest?: string };
  if (typeof code !== "string" || typeof path !== "string" || !(code in FILE_ERRORS)) return null;
  return `${path}${dest ? ` → ${dest}` : ""}: ${FILE_ERRORS[code]} (${code})`;
}

/** Runs the CLI; user errors become one line on stderr and exit code 2. */
export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: "user" });
    // A command that ran but found a failing check (metrics compare) says so with exit code 1.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (or the help text).
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isAnamnesisError(error)) {
      process.stderr.write(`anamnesis: ${error.message}\n`);
      return 2;
    }
    const fileProblem = describeFileError(error);
    if (fileProblem) {
      process.stderr.write(`anamnesis: ${fileProblem}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`anamnesis: internal error: ${message}\n`);
    return 1;
  }
}
