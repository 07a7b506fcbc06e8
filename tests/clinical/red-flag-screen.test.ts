import { describe, expect, it, vi } from "vitest";
import { RedFlagScreen } from "../../src/clinical/red-flag-screen.ts";
import { loadRedFlags, parseRedFlags } from "../../src/clinical/red-flags.ts";
import { SemanticRedFlags, type SentenceEncoder } from "../../src/clinical/red-flags-semantic.ts";
import { SignReader } from "../../src/clinical/red-flag-signs.ts";
import { readFileSync } from "node:fs";

/** The bundled rules, copied, so that spying on their reader does not touch the shared instance. */
const freshRules = () => parseRedFlags(readFileSync(new URL("../../ontology/red-flags.json", import.meta.url), "utf8"));

/** A fake encoder over a few words, whose answers can be held back. */
function wordEncoder(hold: Promise<void> = Promise.resolve(), calls: string[][] = []): SentenceEncoder {
  const vocabulary = ["calf", "swollen", "room", "spinning", "knee", "football"];
  return {
    model: "fake-words-2",
    encode: async (sentences) => {
      calls.push([...sentences]);
      await hold;
      return sentences.map((sentence) =>
        Float32Array.from(vocabulary.map((word) => (sentence.includes(word) ? 1 : 0))),
      );
    },
  };
}
const anchors = [
  { flag: "pulmonary_embolism", text: "my calf is swollen and the room is spinning" },
  { flag: null, text: "my knee hurts after football" },
];

describe("reading signs with many long patterns", () => {
  it("finds a sign whose pattern is in a later alternation of the screening pass, and none where there is none", () => {
    // Three signs of about 7,000 characters of pattern each: more than one alternation's worth.
    const long = (word: string) => `\\b${word}\\b|` + Array.from({ length: 700 }, (_, i) => `zq${word}${i}`).join("|");
    const reader = new SignReader({
      first: { means: "a", patterns: [long("alpha")], examples: ["alpha"] },
      second: { means: "b", patterns: [long("bravo")], examples: ["bravo"] },
      third: { means: "c", patterns: [long("charlie")], examples: ["charlie"] },
    });
    expect([...reader.read("only charlie is here").keys()]).toEqual(["third"]);
    expect([...reader.read("alpha and bravo").keys()]).toEqual(["first", "second"]);
    expect(reader.read("nothing at all").size).toBe(0);
  });
});

describe("a conversation's red-flag screen", () => {
  it("hears muddled talk as confusion, not as a stroke's speech; garbled words still fire the stroke flag", () => {
    const ids = (turns: string[]) => new RedFlagScreen(freshRules()).flags({}, turns).map((flag) => flag.id);
    // An elderly parent's delirium, told by her daughter: the content of what she says, not her speech.
    expect(ids(["shes really muddled, talking nonsense, she thought I was her sister"])).not.toContain("stroke_signs");
    expect(ids(["he's been talking rubbish all day"])).not.toContain("stroke_signs");
    expect(ids(["my mum is talking gibberish and her words are slurred"])).toContain("stroke_signs");
  });

  it("hears hay fever named as a medical condition as no allergen; a reaction said with breathlessness still fires anaphylaxis", () => {
    const ids = (turns: string[]) => new RedFlagScreen(freshRules()).flags({}, turns).map((flag) => flag.id);
    // Asked about her medical conditions, a breathless patient names her hay fever.
    const hayFever = ["I've had a cough and some shortness of breath", "I've been told I have allergic rhinitis"];
    expect(ids(hayFever)).not.toContain("anaphylaxis");
    expect(ids(["I'm allergic to peanuts and I ate one, now I'm short of breath"])).toContain("anaphylaxis");
  });

  it("reads each patient turn once, pooling signs across turns; a replaced turn is read again", () => {
    const rules = freshRules();
    const read = vi.spyOn(rules.signs, "read");
    const screen = new RedFlagScreen(rules);
    const turns = ["I've had bad back pain all week", "it's worse when I bend", "and now I can't wee"];
    expect(screen.flags({}, turns.slice(0, 1))).toEqual([]);
    expect(screen.flags({}, turns.slice(0, 2))).toEqual([]);
    const fired = screen.flags({}, turns);
    expect(fired.map((flag) => flag.id)).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired[0]!.evidence).toEqual(['said: "back pain"', `said: "can't wee"`]);
    expect(read.mock.calls.map(([text]) => text)).toEqual(turns);

    // A retry that replaced the last turn: the conversation is read again, and the flag no longer holds.
    read.mockClear();
    expect(screen.flags({}, [...turns.slice(0, 2), "and now I can wee fine"])).toEqual([]);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("fires on the tracked state alone (the CMAS criteria), with the finding as evidence", () => {
    const screen = new RedFlagScreen(loadRedFlags());
    const state = { positive_symptom: [{ value: "chest pain" }, { value: "dyspnea" }] };
    expect(screen.flags(state, ["it hurts"])).toMatchObject([
      {
        id: "chest_pain_with_breathlessness_or_sweating",
        evidence: ["positive symptom: chest pain", "positive symptom: dyspnea"],
      },
    ]);
  });

  it("reads the semantic signal's matches once encoded: a turn whose encoding came late fires at the next screening", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const calls: string[][] = [];
    const semantic = new SemanticRedFlags({
      loadEncoder: async () => wordEncoder(hold, calls),
      anchors,
      thresholds: { similarity: 0.8, margin: 0.1 },
      cacheDir: null,
      waitMs: 20,
    });
    const screen = new RedFlagScreen(loadRedFlags(), semantic);
    // A swollen calf is a sign of a clot; the rules want breathlessness (or more) with it, the statement sounds like one.
    const said = "My calf is swollen and the room is spinning.";
    // The statements' encoding is held back too: the turn waits 20 ms, then the rules go on alone.
    await semantic.prepare([said]);
    expect(screen.flags({}, [said])).toEqual([]);
    release();
    await semantic.prepare([said]);
    const fired = screen.flags({}, [said, "no other problems"]);
    expect(fired).toMatchObject([{ id: "pulmonary_embolism" }]);
    expect(fired[0]!.evidence).toEqual([
      `said: "my calf is swollen and the room is spinning." (sounds like "my calf is swollen and the room is spinning", 1.00)`,
    ]);
    // The sentence was sent to the encoder once, though asked for twice.
    expect(calls.flat().filter((sentence) => sentence === "my calf is swollen and the room is spinning.")).toHaveLength(
      1,
    );
  });

  it("lets a semantic match fire its flag only when the patient said something the flag is about (negative control)", async () => {
    const semantic = new SemanticRedFlags({
      loadEncoder: async () => wordEncoder(),
      anchors,
      thresholds: { similarity: 0.8, margin: 0.1 },
      cacheDir: null,
    });
    const rules = loadRedFlags();
    // Near the statement (cosine 0.87), but an aching calf is not a sign of a clot, and a spinning room is no subject.
    const said = "The room is spinning and my calf aches.";
    await semantic.prepare([said]);
    expect(semantic.matchPrepared(said)?.map((match) => match.flag)).toEqual(["pulmonary_embolism"]);
    expect(new RedFlagScreen(rules, semantic).flags({}, [said])).toEqual([]);
    // Said in an earlier turn, the subject counts: a swollen leg, then the sentence that sounds like a clot.
    const fired = new RedFlagScreen(rules, semantic).flags({}, ["my leg is swollen", said]);
    expect(fired.map((flag) => flag.id)).toEqual(["pulmonary_embolism"]);
  });
});
