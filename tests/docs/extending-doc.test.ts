import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { exactJudge } from "../../src/metrics/attribute-judge.ts";
import { prepareBench } from "../../eval/prepare-bench.ts";
import { SUITE_REGISTRY } from "../../eval/registry.ts";
import { formatResultsTable } from "../../eval/results-table.ts";
import type { BenchResults } from "../../eval/shared/bench-results.ts";
import type { Suite } from "../../eval/shared/suite.ts";
import { createSuiteRegistry } from "../../eval/suite-registry.ts";

/**
 * docs/extending.md stays true: its worked suite is taken from the page, put where the page says (its
 * imports resolved from that folder), registered as the page's registry line registers it, run as the
 * page's command runs it, and what it prints is what the page shows.
 */
const doc = readFileSync(bundledPath("docs", "extending.md"), "utf8");

/** The fenced block right after `<!-- marker -->`. */
function blockAfter(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/extending.md: no block after <!-- ${marker} -->`);
  return match[1]!;
}

/** A relative import specifier, e.g. `"../../shared/suite.ts"`. */
const RELATIVE_IMPORT = /(from\s+")(\.{1,2}\/[^"]+)(")/g;

/** The page's suite file written to a temporary folder, its imports pointing where they would from `folder` in the checkout. */
async function loadSuiteFromDoc(scratch: string, folder: string): Promise<Record<string, unknown>> {
  const source = blockAfter("worked-example:suite").replace(
    RELATIVE_IMPORT,
    (_match, before: string, specifier: string, after: string) =>
      `${before}${pathToFileURL(resolve(folder, specifier)).href}${after}`,
  );
  const file = join(scratch, "suite.ts");
  writeFileSync(file, source);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

describe("docs/extending.md", () => {
  const scratch = mkdtempSync(join(tmpdir(), "anamnesis-extending-"));
  const suitePath = /in `(eval\/suites\/[\w-]+\/[\w-]+\.ts)`:/.exec(doc)?.[1];
  let suite: Suite;
  let exportName: string;
  let results: BenchResults;
  const registry = () => createSuiteRegistry([...SUITE_REGISTRY.suites, suite]);

  beforeAll(async () => {
    expect(suitePath).toBeDefined();
    const exports = await loadSuiteFromDoc(scratch, dirname(bundledPath(suitePath!)));
    [exportName, suite] = Object.entries(exports)[0] as [string, Suite];
    const plan = {
      suites: [suite.id] as never,
      dataset: loadMeditod(),
      split: "test",
      outDir: join(scratch, "run"),
      limit: 10,
      modules: {
        backendId: "embedded",
        protocol: "embedded",
        backendOptions: {},
        exemplars: 5,
        official: { checkoutDir: undefined, embeddings: undefined },
        anamnesis: {},
      },
      judge: "exact",
    } as const;
    const bench = await prepareBench(plan, registry());
    try {
      results = await bench.run({ signal: new AbortController().signal, onProgress: () => {} });
    } finally {
      await bench.close();
    }
  }, 120_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("adds the suite with the one registry line it shows", () => {
    const registryFile = readFileSync(bundledPath("eval", "registry.ts"), "utf8");
    const [importLine, list] = blockAfter("worked-example:registry").trim().split("\n\n") as [string, string];
    expect(importLine).toBe(`import { ${exportName} } from "./${suitePath!.replace(/^eval\//, "")}";`);
    expect(list).toContain(`  ${exportName},\n] as const;`);
    // The rest of the list is the registry as it stands: the example adds one line and changes nothing else.
    expect(registryFile).toContain(list.replace(`  ${exportName},\n`, ""));
  });

  it("prints the results table it shows for the command it gives", () => {
    expect(doc).toContain(`\`anamnesis bench --suite ${suite.id} --limit 10\``);
    expect(`${formatResultsTable(results, registry())}\n`).toBe(blockAfter("worked-example:bench"));
  });

  it("prints what it shows when the predictions file is scored", async () => {
    const [command, ...printed] = blockAfter("worked-example:score").split("\n");
    expect(command).toBe(
      `$ anamnesis score ${suite.id} --predictions runs/embedded-test/predictions-${suite.id}.jsonl`,
    );
    const scores = await suite.scoreCommand.run({
      predictions: join(scratch, "run", `predictions-${suite.id}.jsonl`),
      judge: async () => exactJudge,
    });
    expect(suite.scoreCommand.print(scores)).toBe(printed.join("\n"));
    expect(scores).toEqual(results.suites[suite.id]);
  });

  it("gives the suite its section of the report", () => {
    const report = readFileSync(join(scratch, "run", "report.md"), "utf8");
    const section = suite.reportSection({
      scores: results.suites[suite.id],
      dataset: loadMeditod(),
      dir: join(scratch, "run"),
      ourLabel: "",
      chartLabel: "",
    });
    expect(report).toContain(`### ${section.tables[0]!.title}`);
  });
});
