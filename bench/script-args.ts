import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** What `parseArgs` returns for a configuration. */
type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/**
 * The opening comment of a script, which says how to run it, without its comment marks. Example: the
 * lines of `/** Runs … npx tsx bench/x.ts [--rounds N] … *\/` at the top of `bench/x.ts`.
 */
function usageOf(script: string): string {
  const opening = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(script, "utf8"))?.[1] ?? "";
  const lines = opening.split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
  return `${lines.join("\n").trim()}\n`;
}

/**
 * `parseArgs` for the bench scripts: `--help` prints the script's opening comment (its usage) and exits
 * 0; an unknown or malformed option is one line and exit 2, never a stack trace.
 */
export function scriptArgs<T extends ParseArgsConfig>(config: T, script: string = process.argv[1] ?? ""): Parsed<T> {
  const argv = config.args ?? process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageOf(script));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`${basename(script)}: ${(error as Error).message} (--help for usage)\n`);
    process.exit(2);
  }
}
