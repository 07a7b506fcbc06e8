import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/foundation/package-paths.ts";

/**
 * The README and docs/ stay true to the tree: every relative link reaches a file (and its heading,
 * when it names one), and every file of the repository they name in code spans exists. Files move
 * (the layers did); this test names the page and the path that a move left behind.
 */

const PAGES = [
  "README.md",
  ...readdirSync(join(PACKAGE_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const text = (page: string) => readFileSync(join(PACKAGE_ROOT, page), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(page: string): Set<string> {
  const withoutCode = text(page).replace(/```[\s\S]*?```/g, "");
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

/** Top-level folders whose files the pages name in code spans, e.g. `src/cmas/dialogue-state.ts`. */
const FOLDERS = [
  "src",
  "eval",
  "server",
  "cli",
  "bench",
  "tests",
  "test-support",
  "ontology",
  "prompts",
  "data",
  "examples",
  "docs",
  "\\.ci",
];
const REPOSITORY_PATH = new RegExp(`\`((?:${FOLDERS.join("|")})/[\\w./-]+|index\\.ts|package\\.json)\``, "g");

describe("links and file names in README.md and docs/", () => {
  it("every relative link reaches a file, and the heading it names", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split("#") as [string, string | undefined];
        const path = file === "" ? page : relative(PACKAGE_ROOT, join(PACKAGE_ROOT, dirname(page), file));
        if (!existsSync(join(PACKAGE_ROOT, path))) broken.push(`${page}: ${target} (no ${path})`);
        else if (anchor && path.endsWith(".md") && !anchorsOf(path).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every repository file named in a code span exists", () => {
    const missing: string[] = [];
    for (const page of PAGES) {
      for (const [, path] of text(page).matchAll(REPOSITORY_PATH)) {
        // Placeholders, globs and run outputs name no file of the repository; src/prompting/ is MediTOD's own.
        if (/[<>*…]|\/$/.test(path!) || path!.startsWith("runs/") || path!.startsWith("src/prompting/")) continue;
        // The suite that docs/extending.md walks a reader through adding is theirs to write, not ours.
        if (path!.startsWith("eval/suites/meditod-intents/")) continue;
        if (!existsSync(join(PACKAGE_ROOT, path!))) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
