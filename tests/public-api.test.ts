import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/**
 * A program over declaration files, for their documentation comments only: the packages' own
 * declarations are read as empty modules (parsing them, with the DOM's, was most of this file's time,
 * and no comment of ours is in them), and only the ES library is read.
 */
function declarationsProgram(files: readonly string[]): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    types: [],
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file.includes("/node_modules/") && !file.includes("/node_modules/typescript/lib/")
      ? ts.createSourceFile(file, "export {};", language)
      : read(file, language, ...rest);
  return ts.createProgram(files, options, host);
}

/** One program over both entry points' declarations. */
let shared: ts.Program | undefined;
function entryPointsProgram(): ts.Program {
  shared ??= declarationsProgram(Object.values(ENTRY_POINTS).map((entry) => bundledPath(entry)));
  return shared;
}

/** Exported names of a declaration file of a program that have no documentation comment (aliases followed). */
function undocumentedExports(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
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
      expect(undocumentedExports(entryPointsProgram(), bundledPath(entry))).toEqual([]);
    });
  }

  it("negative control: finds an export without TSDoc, its own or re-exported, and not one with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "anamnesis-tsdoc-"));
    try {
      writeFileSync(
        join(dir, "index.d.ts"),
        '/** Documented. */\nexport declare const a: number;\nexport declare const b: string;\nexport { c, d } from "./more.js";\n',
      );
      writeFileSync(
        join(dir, "more.d.ts"),
        "export declare function c(): void;\n/** Documented. */\nexport declare function d(): void;\n",
      );
      const file = join(dir, "index.d.ts");
      expect(undocumentedExports(declarationsProgram([file]), file)).toEqual(["b", "c"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
