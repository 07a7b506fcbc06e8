import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pythonJsonDumps } from "../../../src/data/python-json.ts";
import { evaluatePythonString, readMeditodCheckout } from "../../../src/modules/official/meditod-checkout.ts";
import { deformatOfficialNlu, formatOfficialNlu } from "../../../src/modules/official/official-nlu-format.ts";
import { officialPostProcess } from "../../../src/modules/official/official-post-process.ts";
import {
  l2Normalise,
  OfficialPrompter,
  topByDescendingArgsort,
} from "../../../src/modules/official/official-prompter.ts";
import type { ChatBackend } from "../../../src/backends/spec.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { writeStandInCheckout, STAND_IN } from "../../../test-support/stand-in-checkout.ts";
import { seededRandom } from "../../../test-support/random.ts";

/**
 * The pieces of the official protocol against values derived by hand from the rules of the official
 * code and of Python (`json.dumps`, string literals, `str.lower`, numpy's argsort).
 */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-official-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("Python's json.dumps", () => {
  it("uses ', ' and ': ' without indent and keeps key order", () => {
    expect(pythonJsonDumps([{ intent: "inform", slots: { symptom: [{ value: "fever", status: "negative" }] } }])).toBe(
      '[{"intent": "inform", "slots": {"symptom": [{"value": "fever", "status": "negative"}]}}]',
    );
    expect(pythonJsonDumps({ b: 1, a: [true, false, null], c: {} })).toBe(
      '{"b": 1, "a": [true, false, null], "c": {}}',
    );
  });

  it("escapes everything outside printable ASCII as \\uXXXX, beyond the BMP as a surrogate pair", () => {
    expect(pythonJsonDumps("café 😀")).toBe('"caf\\u00e9 \\ud83d\\ude00"');
    expect(pythonJsonDumps('a"b\\c\nd\te\r\b\f')).toBe('"a\\"b\\\\c\\nd\\te\\r\\b\\f"');
    expect(pythonJsonDumps("\u0001\u007f\u2014~ ")).toBe('"\\u0001\\u007f\\u2014~ "');
  });

  it("indents with ',' at line ends and keeps empty containers short", () => {
    expect(pythonJsonDumps({}, { indent: 2 })).toBe("{}");
    expect(pythonJsonDumps([], { indent: 2 })).toBe("[]");
    expect(pythonJsonDumps({ positive_symptom: [{ value: "coughing", checks: [] }], x: "é" }, { indent: 2 })).toBe(
      '{\n  "positive_symptom": [\n    {\n      "value": "coughing",\n      "checks": []\n    }\n  ],\n  "x": "\\u00e9"\n}',
    );
  });
});

describe("reading the prompt text from a MediTOD checkout", () => {
  it("evaluates Python string literals: escapes, line continuations, raw strings", () => {
    expect(evaluatePythonString('a\\tb \\"q\\" \\\\ c\\\nd \\x41\\u00e9 \\z')).toBe('a\tb "q" \\ cd Aé \\z');
    expect(evaluatePythonString("raw \\n stays", true)).toBe("raw \\n stays");
  });

  it("reads the three task descriptions and the commit of the checkout's HEAD", () => {
    const dir = writeStandInCheckout(join(scratch, "checkout"));
    const checkout = readMeditodCheckout(dir);
    expect(checkout.taskDescriptions).toEqual(STAND_IN.expected);
    expect(checkout.commit).toBe(STAND_IN.commit);
  });

  it("names what it expected when the checkout is missing or unrecognisable", () => {
    expect(() => readMeditodCheckout(join(scratch, "nowhere"))).toThrow(
      /MediTOD checkout not found: .*nowhere \(expected a checkout of dair-iitd\/MediTOD/,
    );
    const empty = join(scratch, "empty");
    mkdirSync(empty, { recursive: true });
    expect(() => readMeditodCheckout(empty)).toThrow(/no src\/prompting\/commons\.py/);
    const partial = join(scratch, "partial");
    mkdirSync(join(partial, "src", "prompting"), { recursive: true });
    writeFileSync(join(partial, "src", "prompting", "commons.py"), 'task_description = """only NLU"""\n');
    expect(() => readMeditodCheckout(partial)).toThrow(
      /does not define pol_task_description as a triple-quoted string/,
    );
  });
});

describe("format_nlu and deformat_nlu", () => {
  it("moves the status into each entry; of two statuses of one slot in a frame the later list stays", () => {
    const frames = [
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "coughing", onset: "a week" }],
          negative_symptom: [{ value: "fever" }],
          age: [{ value: "40" }],
        },
      },
      { intent: "nod_prompt_salutations" },
    ];
    expect(formatOfficialNlu(frames)).toEqual([
      { intent: "inform", slots: { symptom: [{ value: "fever", status: "negative" }], age: [{ value: "40" }] } },
      { intent: "nod_prompt_salutations" },
    ]);
    expect(pythonJsonDumps(formatOfficialNlu(frames))).toBe(
      '[{"intent": "inform", "slots": {"symptom": [{"value": "fever", "status": "negative"}], "age": [{"value": "40"}]}}, {"intent": "nod_prompt_salutations"}]',
    );
    // 'unavail_' is tested before 'avail_', which it contains.
    expect(formatOfficialNlu([{ intent: "inform", slots: { unavail_medical_test: [{ value: "x-ray" }] } }])).toEqual([
      { intent: "inform", slots: { medical_test: [{ value: "x-ray", status: "unavail" }] } },
    ]);
  });

  it("puts the status back into the slot name, an unknown status as unknown_, other slots as they are", () => {
    const reply = [
      {
        intent: "inform",
        slots: {
          symptom: [{ value: "cough", status: "positive" }, { value: "fever", status: "maybe" }, { value: "rash" }],
          medical_test: [{ value: "x-ray", status: "positive" }],
          age: [{ value: "40", status: "x" }],
        },
      },
    ];
    expect(deformatOfficialNlu(reply)).toEqual([
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "cough" }],
          unknown_symptom: [{ value: "fever" }, { value: "rash" }],
          unknown_medical_test: [{ value: "x-ray" }],
          age: [{ value: "40", status: "x" }],
        },
      },
    ]);
    // Where Python raises, the reason is kept; where it does not ({} iterates as nothing), neither do we.
    expect(() => deformatOfficialNlu({ intent: "inform" })).toThrow(/a frame is "intent", not an object/);
    expect(() => deformatOfficialNlu([{ slots: {} }])).toThrow(/no intent/);
    expect(() => deformatOfficialNlu([{ intent: "inform", slots: { symptom: ["cough"] } }])).toThrow(
      /an entry of symptom is "cough"/,
    );
    expect(deformatOfficialNlu({})).toEqual([]);
  });

  it("prefixes exactly the seven slots the official deformat_nlu lists (taken from cmas.json, checked here)", () => {
    const official = [
      "symptom",
      "medical_history",
      "family_history",
      "habit",
      "exposure",
      "medication",
      "medical_test",
    ];
    const statusOf = (slot: string) => (slot === "medical_test" ? "avail" : "positive");
    const slots = Object.fromEntries(
      [...official, "disease", "residence"].map((slot) => [slot, [{ value: "v", status: statusOf(slot) }]]),
    );
    const written = Object.keys(deformatOfficialNlu([{ intent: "inform", slots }])[0]!.slots as object);
    expect(written).toEqual([...official.map((slot) => `${statusOf(slot)}_${slot}`), "disease", "residence"]);
  });
});

describe("post.py", () => {
  it("lower-cases the whole reply and parses strict JSON; anything else is [] with its reason", () => {
    expect(officialPostProcess("policy", '[{"action": "Inquire", "symptom": [{"value": "Fever"}]}]')).toEqual({
      prediction: [{ action: "inquire", symptom: [{ value: "fever" }] }],
    });
    const fenced = officialPostProcess("policy", '```json\n[{"action": "inquire"}]\n```');
    expect(fenced.prediction).toEqual([]);
    expect(fenced.formatError).toMatch(/^not JSON \(a fenced block\)/);
    const prose = officialPostProcess("nlu", 'Here is the output: [{"intent": "inform"}]');
    expect(prose.prediction).toEqual([]);
    expect(prose.formatError).toMatch(/^not JSON \(prose\)/);
    expect(officialPostProcess("nlu", null)).toMatchObject({
      prediction: [],
      formatError: expect.stringMatching(/^not JSON/),
    });
    expect(officialPostProcess("nlu", '[{"slots": {}}]')).toEqual({
      prediction: [],
      formatError: "deformat_nlu failed: a frame has no intent",
    });
  });

  it("keeps an NLG reply lower-cased and flags one that is no utterance", () => {
    expect(officialPostProcess("nlg", "Since WHEN?")).toEqual({ prediction: "since when?" });
    expect(officialPostProcess("nlg", "")).toEqual({ prediction: "", formatError: "empty reply" });
    expect(officialPostProcess("nlg", "NULL")).toEqual({ prediction: "null", formatError: "the reply is null" });
    expect(
      officialPostProcess("nlg", "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>").formatError,
    ).toBe("an HTML page (502 bad gateway), not an utterance");
  });
});

describe("dense ranking", () => {
  it("takes the top k by descending score, exact ties later index first (argsort reversed)", () => {
    expect(topByDescendingArgsort([0.5, 0.9, 0.5, 0.1, 0.9, 0.5], 5)).toEqual([4, 1, 5, 2, 0]);
    expect([...l2Normalise([3, 4])]).toEqual([0.6, 0.8]);
    expect([...l2Normalise([0, 0])]).toEqual([0, 0]);
  });

  it("selects exactly what a full sort (score descending, then index descending) would, for any k and many ties", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial += 1) {
      const scores = Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 6) / 5 - 0.5);
      const k = Math.floor(random() * 8);
      const sorted = scores
        .map((_, index) => index)
        .sort((left, right) => scores[right]! - scores[left]! || right - left);
      expect(topByDescendingArgsort(scores, k)).toEqual(sorted.slice(0, k));
      expect(topByDescendingArgsort(Float64Array.from(scores), k)).toEqual(sorted.slice(0, k));
    }
  });
});

describe("the official prompter's embeddings", () => {
  const backend = (answer: (texts: readonly string[]) => number[][]) =>
    ({
      id: "fake:embedder",
      capabilities: { embeddings: true },
      embed: async (texts: readonly string[]) => ({
        embeddings: answer(texts),
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        cached: false,
      }),
    }) as unknown as ChatBackend;

  it("refuses a server that returns fewer vectors than texts, or vectors of different lengths", async () => {
    const dataset = loadMeditod();
    const short = new OfficialPrompter(
      "nlu",
      "system",
      dataset,
      backend((texts) => texts.slice(1).map(() => [1, 0])),
    );
    await expect(short.build("407", 1)).rejects.toThrow(/fake:embedder returned \d+ vectors for \d+ texts/);
    let calls = 0;
    const ragged = new OfficialPrompter(
      "nlu",
      "system",
      dataset,
      backend((texts) => texts.map(() => (calls++ === 0 ? [1, 0] : [1, 0, 0]))),
    );
    await expect(ragged.build("407", 1)).rejects.toThrow(
      /fake:embedder returned vectors of 2 and 3 dimensions \(expected 2\)/,
    );
  });
});
