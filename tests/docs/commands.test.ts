import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/foundation/package-paths.ts";
import { runCli } from "../cli/helpers.ts";

/**
 * Every `anamnesis` command line in README.md and docs/ names a command that exists and only flags
 * that command's `--help` lists, so a renamed flag cannot linger in the documentation.
 */

const PAGES = [
  "README.md",
  ...readdirSync(join(PACKAGE_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const helpCache = new Map<string, string | null>();

/** The `--help` of a command path (`["score", "meditod-nlu"]`), or null when there is no such command. */
async function helpOf(path: readonly string[]): Promise<string | null> {
  const key = path.join(" ");
  if (!helpCache.has(key)) {
    const result = await runCli([...path, "--help"]);
    // Commander prints the parent's help for an unknown subcommand: the usage line tells them apart.
    helpCache.set(key, result.status === 0 && result.stdout.includes(`Usage: anamnesis ${key}`) ? result.stdout : null);
  }
  return helpCache.get(key)!;
}

/** The command lines of a page: `npx anamnesis …` and `anamnesis …`, up to a pipe, a comment or the line's end. */
function commandLines(page: string): string[] {
  const lines: string[] = [];
  const text = readFileSync(join(PACKAGE_ROOT, page), "utf8").replace(/\\\n\s*/g, " ");
  for (const match of text.matchAll(/(?:npx |^|`|\| )anamnesis ((?:[a-z][\w-]*)(?: [^`|#\n]*)?)/gm))
    lines.push(match[1]!.trim());
  return lines;
}

describe("anamnesis command lines in README.md and docs/", () => {
  it("name existing commands and only the flags their --help lists", async () => {
    const problems: string[] = [];
    for (const page of PAGES) {
      for (const line of commandLines(page)) {
        const words = line.split(/\s+/);
        // The command path: the command, and its subcommand when it has one (score meditod-nlu, metrics pairs, data stats).
        // A flag or an argument in second place is no subcommand: only a bare word is asked about.
        const mayBeSubcommand = words[1] !== undefined && /^[a-z][\w-]*$/.test(words[1]);
        const path = mayBeSubcommand && (await helpOf(words.slice(0, 2))) ? words.slice(0, 2) : words.slice(0, 1);
        const help = await helpOf(path);
        if (!help) {
          problems.push(`${page}: no command "${path.join(" ")}" (${line})`);
          continue;
        }
        for (const flag of words.filter((word) => /^--[a-z][\w-]*$/.test(word))) {
          if (!new RegExp(`(^|[\\s,])${flag}(\\s|$|,)`, "m").test(help))
            problems.push(`${page}: ${path.join(" ")} has no ${flag} (${line})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
