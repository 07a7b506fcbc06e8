import { describe, expect, it } from "vitest";
import { loadMeditod, type Dialogue, type MeditodDataset } from "../../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../../src/modules/embedded/index.ts";
import { loadTrainingData } from "../../../src/modules/embedded/training-data.ts";
import { nluExamples } from "../../../src/data/meditod-views.ts";

/**
 * The embedded engine never reads test dialogues: built from a dataset whose test dialogues throw on
 * any access (and whose utterances of every dialogue are watched), the build must succeed and must have
 * touched only training dialogues.
 */
function guardedDataset(): { dataset: MeditodDataset; touched: Set<string> } {
  const real = loadMeditod();
  const forbidden = new Set([...(real.splits.test ?? []), ...(real.splits.ood ?? [])]);
  const touched = new Set<string>();
  const watch = (dialogue: Dialogue): Dialogue =>
    new Proxy(dialogue, {
      get(target, property, receiver) {
        if (forbidden.has(target.id)) throw new Error(`test dialogue ${target.id} was read (${String(property)})`);
        touched.add(target.id);
        return Reflect.get(target, property, receiver);
      },
    });
  const dialogues = new Map([...real.dialogues].map(([id, dialogue]) => [id, watch(dialogue)]));
  return { dataset: { ...real, dialogues }, touched };
}

describe("the embedded engine's training data", () => {
  it("builds without reading any test dialogue and records what it read", async () => {
    const { dataset, touched } = guardedDataset();
    const engine = buildEmbeddedEngine(dataset, "train");
    expect(engine.trainedOn).toEqual(["115"]);
    expect([...touched]).toEqual(["115"]);

    // Answering the test dialogue's turns is allowed, but it still reads nothing else of the data.
    const real = loadMeditod();
    const example = nluExamples(real, "test")[0]!;
    await engine.nlu.understand({
      history: example.history.map(({ speaker, text }) => ({ speaker, text })),
      utterance: example.text,
    });
    await engine.policy.nextActions({ history: [], state: {} });
    expect([...touched]).toEqual(["115"]);
  });

  it("refuses to learn from test or out-of-domain dialogues", () => {
    const dataset = loadMeditod();
    expect(() => loadTrainingData(dataset, "test")).toThrow(/never learns from test/);
    expect(() => loadTrainingData(dataset, ["115", "407"])).toThrow(/407/);
    expect(() => buildEmbeddedEngine({ ...dataset, splits: { ...dataset.splits, ood: ["317"] } }, "valid")).toThrow(
      /317/,
    );
    expect(loadTrainingData(dataset, ["115", "317"]).dialogueIds).toEqual(["115", "317"]);
  });
});
