import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT, bundledPath } from "../src/foundation/package-paths.ts";

/**
 * The public API: what `package.json` `exports` names (`anamnesis`, `anamnesis/testing`) imports from
 * the build with its types, and every exported name carries TSDoc.
 */

/** The declarations `package.json` `types` and `exports` give users: the TSDoc they see in their editor. */
const ENTRY_POINTS = { anamnesis: "dist/index.d.ts", "anamnesis/testing": "dist/src/testing/index.d.ts" } as const;

/** One type-checked program over both entry points' declarations (no function bodies to check). */
let shared: ts.Program | undefined;
function program(): ts.Program {
  shared ??= ts.createProgram(
    Object.values(ENTRY_POINTS).map((entry) => bundledPath(entry)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
    },
  );
  return shared;
}

/** Exported names of an entry point that have no documentation comment (aliases followed). */
function undocumentedExports(entry: string): string[] {
  const checker = program().getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program().getSourceFile(bundledPath(entry))!)!;
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declarations = target.getDeclarations() ?? [];
      const hasDoc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim() !== "";
      const hasJsDocNode = declarations.some((declaration) => ts.getJSDocCommentsAndTags(declaration).length > 0);
      return !hasDoc && !hasJsDocNode;
    })
    .map((symbol) => symbol.getName())
    .sort();
}

describe("the public API", () => {
  it("imports from the build through package.json exports, as a user's code does", () => {
    const script = `
      const root = await import("anamnesis");
      const testing = await import("anamnesis/testing");
      const names = ["scoreNlu", "scorePolicy", "scoreNlg", "scorePair", "createBackend", "registerProvider", "defineProvider", "DialogueStateTracker", "nluFramesSchema", "Conversation", "runBench", "createModules"];
      console.log(JSON.stringify({ missing: names.filter((name) => root[name] === undefined), testing: typeof testing.checkBackend, url: import.meta.resolve("anamnesis") }));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    const out = JSON.parse(result.stdout) as { missing: string[]; testing: string; url: string };
    expect(out.missing).toEqual([]);
    expect(out.testing).toBe("function");
    expect(fileURLToPath(out.url)).toBe(bundledPath("dist", "bundle", "anamnesis.js"));
  });

  it("scores with the root import as the official script does", async () => {
    const { scoreNlu, loadMeditod } = await import("../index.ts");
    const fixture = JSON.parse(
      readFileSync(new URL("./fixtures/meditod-official-scores.json", import.meta.url), "utf8"),
    ) as {
      cases: Array<{
        task: string;
        name: string;
        lines: Array<Record<string, unknown>>;
        official: Record<string, number>;
      }>;
    };
    const testCase = fixture.cases.find((c) => c.task === "nlu" && c.name === "all-malformed-0.4")!;
    const lines = testCase.lines.map((line, index) => ({
      ...line,
      dialogue_id: String(line.dialogue_id),
      turn: Number(line.turn),
      prediction: line.prediction,
      line: index + 1,
    }));
    const scores = await scoreNlu(loadMeditod(), lines);
    expect(scores.overall.f1).toBeCloseTo(testCase.official.f1!, 12);
  });

  for (const [name, entry] of Object.entries(ENTRY_POINTS)) {
    it(`documents every export of ${name} with TSDoc`, () => {
      expect(undocumentedExports(entry)).toEqual([]);
    });
  }
});
