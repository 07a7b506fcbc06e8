import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../../server/sqlite-session-store.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags } from "../../src/clinical/red-flags-encoder.ts";
import { SemanticRedFlags, type SentenceEncoder } from "../../src/clinical/red-flags-semantic.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { tempDirForTest } from "../temp-dirs.ts";
import { callApi, chatServerForTest } from "./chat-server.ts";

/**
 * The chat server's red-flag screening with and without the semantic signal: `/api/health` says which
 * runs and why; every conversation, new or resumed after a restart, is given the signal; an encoder
 * that fails to load leaves the lay-word rules running. The encoders here are fakes (the model is not
 * loaded: its own slow-path test is in tests/clinical/red-flags-semantic.test.ts).
 */

let modules: DialogueModules;
beforeAll(async () => {
  ({ modules } = await createModules("embedded", loadMeditod()));
}, 120_000);

/** A fake encoder: a vector of word counts over a small vocabulary, so similar wording is near. */
function fakeEncoder(): SentenceEncoder {
  const vocabulary = ["calf", "swollen", "room", "spinning", "tidy", "paint"];
  return {
    model: "fake-words-1",
    encode: async (sentences) =>
      sentences.map((sentence) => Float32Array.from(vocabulary.map((word) => (sentence.includes(word) ? 1 : 0)))),
  };
}

/** A semantic signal on the fake encoder: one statement of a clot in the lung, one near-miss. */
function fakeSemantic(): SemanticRedFlags {
  return new SemanticRedFlags({
    loadEncoder: async () => fakeEncoder(),
    anchors: [
      { flag: "pulmonary_embolism", text: "my calf is swollen and the room is spinning" },
      { flag: null, text: "I painted the room, it looks tidy" },
    ],
    thresholds: { similarity: 0.8, margin: 0.1 },
    cacheDir: null,
  });
}

/**
 * A paraphrase of a clot in the lung that the lay-word rules do not read (checked below): a swollen calf,
 * one of the flag's own signs (the semantic signal fires a flag only then), with dizziness.
 */
const PARAPHRASE = "My calf is swollen and the room is spinning.";

const turn = (url: string, id: string, text: string) => callApi(url, "POST", `/api/sessions/${id}/turns`, { text });

describe("the chat server's red-flag screening", () => {
  it("without the semantic signal: the rules run, /api/health says the signal is off and how to turn it on", async () => {
    expect(loadRedFlags().evaluateSaid([PARAPHRASE])).toEqual([]);
    const server = await chatServerForTest({ modules });
    const health = await callApi(server.url, "GET", "/api/health");
    expect(health.json.redFlags).toEqual({
      rules: "on",
      semantic: { state: "off", model: null, reason: expect.stringMatching(/--semantic-red-flags/) },
    });
    const id = (await callApi(server.url, "POST", "/api/sessions", {})).json.id;
    expect((await turn(server.url, id, PARAPHRASE)).json.outcome.escalation).toEqual([]);
  });

  it("with it: new and resumed conversations escalate on a paraphrase the rules lack, with the words as evidence", async () => {
    const path = join(tempDirForTest("anamnesis-semantic-"), "sessions.db");
    const first = await chatServerForTest({
      modules,
      store: new SqliteSessionStore(path),
      semanticRedFlags: fakeSemantic(),
    });
    const id = (await callApi(first.url, "POST", "/api/sessions", {})).json.id;
    const fired = await turn(first.url, id, PARAPHRASE);
    expect(fired.json.outcome.escalation).toMatchObject([{ id: "pulmonary_embolism", turn: 1 }]);
    expect(fired.json.redFlags[0].evidence).toEqual([
      'said: "my calf is swollen and the room is spinning." (sounds like "my calf is swollen and the room is spinning", 1.00)',
    ]);
    expect((await callApi(first.url, "GET", "/api/health")).json.redFlags.semantic).toEqual({
      state: "on",
      model: "fake-words-1",
      reason: null,
      statements: true,
      learnedModel: null,
    });
    const other = (await callApi(first.url, "POST", "/api/sessions", {})).json.id;
    await turn(first.url, other, "I've had a cough for a week.");
    await first.close();

    // A restart: the stored conversation is resumed with the signal, and its next turn is screened by it.
    const second = await chatServerForTest({
      modules,
      store: new SqliteSessionStore(path),
      semanticRedFlags: fakeSemantic(),
    });
    const resumed = await turn(second.url, other, PARAPHRASE);
    expect(resumed.json.outcome.escalation.map((flag: { id: string }) => flag.id)).toEqual(["pulmonary_embolism"]);
  });

  it("an encoder that fails to load: nothing crashes, the rules still escalate, /api/health says why (the page's note reads it: tests/server/red-flag-page.test.ts)", async () => {
    const semantic = bundledSemanticRedFlags(loadRedFlags(), {
      cacheDir: null,
      loadEncoder: async () => {
        throw new Error("Cannot find package '@energetic-ai/embeddings'");
      },
    });
    const server = await chatServerForTest({ modules, semanticRedFlags: semantic });
    const id = (await callApi(server.url, "POST", "/api/sessions", {})).json.id;
    const said = await turn(server.url, id, "my dad's face has gone droopy on one side and he can't lift his arm");
    expect(said.status).toBe(200);
    expect(said.json.outcome.escalation.map((flag: { id: string }) => flag.id)).toContain("stroke_signs");
    const health = await callApi(server.url, "GET", "/api/health");
    expect(health.json.ok).toBe(true);
    expect(health.json.redFlags.rules).toBe("on");
    expect(health.json.redFlags.semantic).toMatchObject({ state: "failed", model: null });
    expect(health.json.redFlags.semantic.reason).toMatch(/Cannot find package '@energetic-ai\/embeddings'/);
  });
});
