import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/foundation/package-paths.ts";
import { architectureSections, ARCHITECTURE_DOC } from "../../docs/architecture-drawing.ts";
import { checkLayers, projectImportGraph, type ImportEdge } from "../../test-support/import-graph.ts";

describe("the layers (test-support/layers.ts)", () => {
  const edges = projectImportGraph(PACKAGE_ROOT);

  it("reads the imports of the whole checkout", () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual({ from: "cli/main.ts", to: "cli/command-table.ts" });
    // A dynamic import counts as an import.
    expect(edges).toContainEqual({
      from: "src/modules/builders/create-modules.ts",
      to: "src/modules/embedded/index.ts",
    });
  });

  it("has no import loop, no import upward or sideways, and reaches the engine only through the module builders", () => {
    const report = checkLayers(edges);
    expect(report.loops).toEqual([]);
    expect(report.upward).toEqual([]);
    expect(report.sideways).toEqual([]);
    expect(report.outsideRules).toEqual([]);
    expect(report.engineReached).toEqual([]);
  });

  it("catches each kind of break (the check can fail)", () => {
    const broken: ImportEdge[] = [
      { from: "src/cmas/a.ts", to: "src/cmas/b.ts" },
      { from: "src/cmas/b.ts", to: "src/cmas/a.ts" },
      { from: "src/data/meditod.ts", to: "src/modules/builders/create-modules.ts" },
      { from: "eval/runner.ts", to: "server/app.ts" },
      { from: "src/metrics/rouge.ts", to: "test-support/random.ts" },
      { from: "bench/metrics.ts", to: "tests/metrics/golden.ts" },
      { from: "src/simulator/self-play.ts", to: "src/modules/embedded/nlg.ts" },
    ];
    const report = checkLayers(broken);
    expect(report.loops).toEqual([["src/cmas/a.ts", "src/cmas/b.ts"]]);
    expect(report.upward).toEqual(["src/data/meditod.ts -> src/modules/builders/create-modules.ts"]);
    expect(report.sideways).toEqual(["eval/runner.ts -> server/app.ts"]);
    expect(report.outsideRules).toEqual([
      "src/metrics/rouge.ts -> test-support/random.ts",
      "bench/metrics.ts -> tests/metrics/golden.ts",
    ]);
    expect(report.engineReached).toEqual(["src/simulator/self-play.ts -> src/modules/embedded/nlg.ts"]);
  });

  it("is drawn as it stands in docs/architecture.md (npx tsx docs/architecture-drawing.ts rewrites it)", () => {
    const doc = readFileSync(ARCHITECTURE_DOC, "utf8");
    for (const section of architectureSections(edges)) expect(doc).toContain(section);
  });
});
