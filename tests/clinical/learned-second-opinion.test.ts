import { describe, expect, it } from "vitest";
import { learnedOverrulesWords, type TurnsRead } from "../../src/clinical/learned-second-opinion.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags } from "../../src/clinical/red-flags-encoder.ts";
import { loadLearnedRedFlags } from "../../src/clinical/red-flags-learned.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";

const rules = loadRedFlags();
const below = rules.file.semantic.learnedVeto!.below;

/** The turns as the screen reads them, with the model's highest probability of a stroke after each turn (null: not read). */
function read(turns: readonly string[], strokeAfterEach: readonly (number | null)[]): TurnsRead {
  return {
    signs: turns.map((turn) => rules.signs.read(turn)),
    highest: strokeAfterEach.map((p) => (p === null ? null : new Map([["stroke_signs", p]]))),
  };
}

describe("the learned model's second opinion on the rules' reading of the words", () => {
  const face = "his face has dropped on one side";
  const arm = "and his arm went weak";

  it("sets a flag aside when the model gives it almost no chance over every run it read", () => {
    expect(rules.saidHolds("stroke_signs", rules.signs.readAll([face]))).toBe(true);
    expect(learnedOverrulesWords(rules, "stroke_signs", read([face], [below / 10]))).toBe(true);
    // Negative control: at the cut-off the rules stand.
    expect(learnedOverrulesWords(rules, "stroke_signs", read([face], [below]))).toBe(false);
  });

  it("lets the rules stand where the model could not judge: a turn not read, a flag it does not know", () => {
    expect(learnedOverrulesWords(rules, "stroke_signs", read([face, arm], [below / 10, null]))).toBe(false);
    const unknown = { signs: [rules.signs.read(face)], highest: [new Map([["anaphylaxis", 0]])] };
    expect(learnedOverrulesWords(rules, "stroke_signs", unknown)).toBe(false);
    // Negative control: both turns read, both low.
    expect(learnedOverrulesWords(rules, "stroke_signs", read([face, arm], [below / 10, below / 10]))).toBe(true);
  });

  it("lets the rules stand when the words are told across more turns than the model reads together", () => {
    const chest = "chest_pain_with_breathlessness_or_sweating";
    const low = (turns: readonly string[]): TurnsRead => ({
      signs: turns.map((turn) => rules.signs.read(turn)),
      highest: turns.map(() => new Map([[chest, below / 10]])),
    });
    const pain = "I have a heavy pain in my chest";
    const sweat = "I am sweating buckets";
    // Neither the pain nor the sweat alone is enough for the rules; four turns apart, both are.
    expect(rules.saidHolds(chest, rules.signs.readAll([pain]))).toBe(false);
    expect(rules.saidHolds(chest, rules.signs.readAll([sweat]))).toBe(false);
    const apart = [pain, "I am 58", "I had my breakfast", "I take statins", sweat];
    expect(rules.saidHolds(chest, rules.signs.readAll(apart))).toBe(true);
    expect(learnedOverrulesWords(rules, chest, low(apart))).toBe(false);
    // Negative control: the same words within three turns are within the model's reach.
    expect(learnedOverrulesWords(rules, chest, low([pain, "I take statins", sweat]))).toBe(true);
  });
});

describe("the second opinion in a conversation (bundled rules and model)", () => {
  const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
  const signal = () => bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null, statements: false });
  const flagsOf = async (said: string, semantic = signal()) =>
    (await new Conversation(engine, { semanticRedFlags: semantic }).say(said)).escalation.map((flag) => flag.id);

  it("a swollen tongue that stops the words after a peanut is anaphylaxis, not a stroke", async () => {
    const said = "after the peanut my tongue swelled up and I cant talk properly";
    const model = await loadLearnedRedFlags();
    // The rules read the words that will not come as a stroke's; the model gives a stroke almost no chance.
    expect(rules.evaluateSaid([said]).map((flag) => flag.id)).toContain("stroke_signs");
    expect(model.highestOfLastTurn([said]).get("stroke_signs")).toBeLessThan(below);
    expect(await flagsOf(said)).toEqual(["anaphylaxis"]);
    // Negative controls: a drooping face with the words gone is still a stroke; with no model, the rules stand.
    expect(await flagsOf("my face has dropped on one side and I cant talk properly")).toContain("stroke_signs");
    expect(await new Conversation(engine).say(said).then((o) => o.escalation.map((f) => f.id))).toContain(
      "stroke_signs",
    );
  });
});
