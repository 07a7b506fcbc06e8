import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareToGolden, golden, pairMetricFields } from "../metrics/golden.ts";
import { pairLines } from "../../src/metrics/pair-lines.ts";
import { runCli } from "./helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-metrics-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const goldenInput = writeFile(
  "golden.jsonl",
  golden.pairs.map((p) => JSON.stringify({ id: p.id, prediction: p.prediction, reference: p.reference })).join("\n") +
    "\n",
);

describe("anamnesis metrics pairs", () => {
  it("writes one JSONL line per pair with the golden values (NaN as null)", async () => {
    const result = await runCli(["metrics", "pairs", "--input", goldenInput]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l.id)).toEqual(golden.pairs.map((p) => p.id));
    lines.forEach((line, i) => {
      const pair = golden.pairs[i]!;
      const { id, ...metrics } = line;
      expect(id).toBe(pair.id);
      expect(compareToGolden(metrics, pairMetricFields(pair), pair.id).mismatches).toEqual([]);
    });
  });
});

describe("anamnesis metrics pairs on worker threads", () => {
  it("writes the same lines, in input order, when a large input is split over workers", async () => {
    // 1,290 pairs: above the threshold at which the compiled CLI scores on worker threads.
    const many = Array.from({ length: 30 }, (_, round) =>
      golden.pairs.map((p) => ({ id: `${round}-${p.id}`, prediction: p.prediction, reference: p.reference })),
    ).flat();
    const input = writeFile("many.jsonl", many.map((pair) => JSON.stringify(pair)).join("\n") + "\n");
    const result = await runCli(["metrics", "pairs", "--input", input]);
    expect(result.stderr).toBe("");
    const expected = pairLines(
      many.map((pair) => ({ rawId: pair.id, prediction: pair.prediction, reference: pair.reference })),
    );
    expect(result.stdout.trimEnd().split("\n")).toEqual(expected);
  });
});

describe("anamnesis metrics corpus", () => {
  it("prints the deterministic corpus values of the golden file", async () => {
    const result = await runCli(["metrics", "corpus", "--input", goldenInput]);
    expect(result.status).toBe(0);
    const corpus = JSON.parse(result.stdout) as Record<string, unknown>;
    const expected = structuredClone(golden.corpus.all) as Record<string, Record<string, unknown>>;
    delete expected.hf_rouge_default_bootstrap_mid_seed0;
    delete expected.meditod!.rouge1_bootstrap_mid_seed0;
    delete expected.meditod!.rougeL_bootstrap_mid_seed0;
    expect(compareToGolden(corpus, expected).mismatches).toEqual([]);
  });
});

describe("metrics input errors", () => {
  it("reports a bad JSON line with its 1-based line number and exits 2", async () => {
    const path = writeFile(
      "bad.jsonl",
      '{"id": "a", "prediction": "Fever?", "reference": "Any fever?"}\n\n{"id": "b", "prediction": \n',
    );
    for (const command of ["pairs", "corpus"]) {
      const result = await runCli(["metrics", command, "--input", path]);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(new RegExp(`^anamnesis: .*bad\\.jsonl:3: not valid JSON`));
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("reports a missing file and missing fields and exits 2", async () => {
    const missing = await runCli(["metrics", "pairs", "--input", join(scratch, "nope.jsonl")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^anamnesis: input file not found: .*nope\.jsonl\n$/);

    const path = writeFile("fields.jsonl", '{"id": "a", "prediction": "Fever?"}\n');
    const noReference = await runCli(["metrics", "pairs", "--input", path]);
    expect(noReference.status).toBe(2);
    expect(noReference.stderr).toMatch(/fields\.jsonl:1: "reference" must be a string/);
  });
});
