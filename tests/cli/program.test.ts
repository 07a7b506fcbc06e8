import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS, selectedCommand } from "../../cli/command-table.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { golden } from "../metrics/golden.ts";
import { runBin, runCli } from "./helpers.ts";

const officialCases = (
  JSON.parse(readFileSync(new URL("../fixtures/meditod-official-scores.json", import.meta.url), "utf8")) as {
    cases: Array<{ task: string; name: string; lines: unknown[]; official: Record<string, number> }>;
  }
).cases;

describe("the anamnesis program", () => {
  it("prints the package.json version", async () => {
    const version = (JSON.parse(readFileSync(bundledPath("package.json"), "utf8")) as { version: string }).version;
    const result = await runCli(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it("lists every command of the table in --help without loading them", async () => {
    const result = await runCli(["--help"]);
    expect(result.status).toBe(0);
    for (const [name, entry] of Object.entries(COMMANDS)) {
      expect(result.stdout).toMatch(
        new RegExp(`^  ${name} +${entry.description.slice(0, 20).replace(/[()]/g, "\\$&")}`, "m"),
      );
    }
  });

  it("loads no command's code, nor express, xstate, LangChain or the tokenizer, to print --help", () => {
    const log = join(mkdtempSync(join(tmpdir(), "anamnesis-imports-")), "imports.txt");
    const hooks = fileURLToPath(new URL("../fixtures/import-log.mjs", import.meta.url));
    const result = spawnSync(process.execPath, ["--import", hooks, bundledPath("bin", "anamnesis.js"), "--help"], {
      encoding: "utf8",
      env: { ...process.env, IMPORT_LOG: log },
    });
    expect(result.status).toBe(0);
    const loaded = readFileSync(log, "utf8").trim().split("\n");
    expect(loaded.some((url) => url.includes("/commander/"))).toBe(true);
    for (const heavy of ["/express/", "/xstate/", "/@langchain/", "/js-tiktoken/", "/zod/"]) {
      expect(
        loaded.filter((url) => url.includes(heavy)),
        heavy,
      ).toEqual([]);
    }
    // The bundle marks each source module it holds with a "// src/…" (or cli/, eval/, server/, and zod's
    // node_modules/zod/…, which the build bundles) line: list the modules loaded.
    const sources = loaded
      .filter((url) => url.includes("/dist/bundle/"))
      .flatMap(
        (url) =>
          readFileSync(fileURLToPath(url), "utf8").match(/^\/\/ (?:src|eval|server|cli|node_modules)\/\S+\.[jt]s$/gm) ??
          [],
      );
    expect(sources).toContain("// cli/main.ts");
    for (const heavy of ["cli/commands/", "src/modules/", "eval/", "server/", "node_modules/zod/"]) {
      expect(
        sources.filter((source) => source.includes(heavy)),
        heavy,
      ).toEqual([]);
    }
  });

  it("shows a command's own options when asked about it", async () => {
    const result = await runCli(["help", "bench"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("--backend <id>");
    expect((await runCli(["metrics", "pairs", "--help"])).stdout).toContain("--input <file>");
  });

  it("rejects an unknown command with exit code 2", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it("selects the command an argument list runs", () => {
    expect(selectedCommand(["bench", "--suite", "meditod-nlu"])).toBe("bench");
    expect(selectedCommand(["--json", "score", "meditod-nlu"])).toBe("score");
    expect(selectedCommand(["help", "merge"])).toBe("merge");
    expect(selectedCommand(["--help"])).toBeUndefined();
    expect(selectedCommand(["nope"])).toBeUndefined();
  });
});

describe("- reads standard input", () => {
  const pairs =
    golden.pairs
      .slice(0, 5)
      .map((p) => JSON.stringify({ id: p.id, prediction: p.prediction, reference: p.reference }))
      .join("\n") + "\n";

  it("metrics pairs --input - gives what the same file gives", () => {
    const fromStdin = runBin(["metrics", "pairs", "--input", "-"], { input: pairs });
    expect(fromStdin.stderr).toBe("");
    expect(fromStdin.stdout.trim().split("\n")).toHaveLength(5);
    expect(JSON.parse(fromStdin.stdout.split("\n")[0]!)).toHaveProperty("id", golden.pairs[0]!.id);
  });

  it("reads a slow pipe as it comes: a line and a multi-byte character split across writes, CRLF endings", async () => {
    const bin = bundledPath("bin", "anamnesis.js");
    const child = spawn(process.execPath, [bin, "metrics", "pairs", "--input", "-"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const bytes = Buffer.from(
      `${JSON.stringify({ id: "é1", prediction: "Fièvre depuis hier.", reference: "Fièvre depuis hier soir." })}\r\n${pairs}`,
      "utf8",
    );
    const cuts = [7, bytes.indexOf("è") + 1, bytes.length - 3];
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      child.stdin.write(bytes.subarray(from, cut));
      from = cut;
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    child.stdin.end();
    const status = await new Promise((resolve) => child.on("close", resolve));
    expect([status, stderr]).toEqual([0, ""]);
    const rows = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string });
    expect(rows.map((row) => row.id)).toEqual(["é1", ...golden.pairs.slice(0, 5).map((pair) => pair.id)]);
    const whole = runBin(["metrics", "pairs", "--input", "-"], { input: bytes.toString("utf8") });
    expect(stdout).toBe(whole.stdout);
  });

  it("names standard input in line errors", () => {
    const result = runBin(["metrics", "corpus", "--input", "-"], { input: `${pairs}{"id": 9}\n` });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('anamnesis: standard input:6: "prediction" must be a string');
  });

  it("score meditod-nlu --predictions - scores as the official script does", async () => {
    const testCase = officialCases.find((c) => c.task === "nlu" && c.name === "all-malformed-0.4")!;
    const input = testCase.lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    const result = runBin(["score", "meditod-nlu", "--predictions", "-", "--json"], { input });
    expect(result.stderr).toBe("");
    expect((JSON.parse(result.stdout) as { overall: { f1: number } }).overall.f1).toBeCloseTo(
      testCase.official.f1!,
      12,
    );
  });
});
