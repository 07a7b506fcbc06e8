import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";

type Statement = string | string[];
interface CorpusPart {
  readonly flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
}
const rules = loadRedFlags();
const part = (name: string): CorpusPart =>
  JSON.parse(readFileSync(new URL(`../../data/red-flag-corpus/${name}.json`, import.meta.url), "utf8")) as CorpusPart;
const fired = (statement: Statement) =>
  rules.evaluateSaid(typeof statement === "string" ? [statement] : statement).map((flag) => flag.id);

describe("red flags on the lay-words corpus (the patient's side, written before the rules)", () => {
  it("development part: every statement fires its flag, and no near-miss fires any flag", () => {
    for (const [flag, { fires, nearMisses }] of Object.entries(part("development").flags)) {
      for (const statement of fires) expect(fired(statement), JSON.stringify(statement)).toContain(flag);
      for (const statement of nearMisses) expect(fired(statement), JSON.stringify(statement)).toEqual([]);
    }
  });

  it("test part: at least the figure scored once (82 of 84 fired, no near-miss fired)", () => {
    let caught = 0;
    let falseAlarms = 0;
    for (const [flag, { fires, nearMisses }] of Object.entries(part("test").flags)) {
      caught += fires.filter((statement) => fired(statement).includes(flag)).length;
      falseAlarms += nearMisses.filter((statement) => fired(statement).length > 0).length;
    }
    expect(caught).toBeGreaterThanOrEqual(82);
    expect(falseAlarms).toBe(0);
  });

  it("covers every flag the issue names, each with at least 10 statements and 10 near-misses in all", () => {
    const development = part("development").flags;
    const test = part("test").flags;
    for (const id of Object.keys(development).filter((id) => id !== "everyday")) {
      expect(rules.flags.some((flag) => flag.id === id && flag.stated && flag.source)).toBe(true);
      expect(development[id]!.fires.length + test[id]!.fires.length).toBeGreaterThanOrEqual(10);
      expect(development[id]!.nearMisses.length + test[id]!.nearMisses.length).toBeGreaterThanOrEqual(10);
    }
    expect(Object.keys(development)).toHaveLength(15);
  });
});

describe("reading signs in the patient's words", () => {
  it("fires on lay words across turns, and a negation or a hedge takes a sign back (negative controls)", () => {
    expect(fired(["I've had bad back pain all week", "and now I can't wee"])).toContain(
      "saddle_numbness_or_sphincter_change",
    );
    expect(fired("I've had bad back pain all week")).toEqual([]);
    expect(fired("She has a temperature and a rash that doesn't fade under a glass")).toContain("sepsis_in_a_child");
    expect(fired("She has a rash that fades under a glass and no temperature")).toEqual([]);
    expect(fired("No, I haven't had blood in my stool or black stools.")).toEqual([]);
    expect(fired("I nearly passed out but didn't, and I'm fit and healthy")).toEqual([]);
  });

  it("hears indirect statements of not wanting to be alive, said with a negation of their own (found in use, not in the corpus)", () => {
    for (const said of [
      "I don't see the point in going on anymore",
      "i keep thinking everyone would be happier if i was gone",
      "life feels pointless and I'd rather just disappear for good",
      "honestly life isn't worth living",
    ])
      expect(fired(said), said).toEqual(["suicidal_thoughts"]);
    for (const said of [
      "I don't see the point in going to the GP for this",
      "I wish this rash would disappear for good",
      "it would be better if he was gone by the weekend, the cold I mean",
      "my life is worth living again now the pain has gone",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("hears when a symptom began apart from how fast: 'since this morning' is not a sudden onset", () => {
    // Breathlessness since this morning is not the sudden breathlessness of a clot in the lung…
    expect(fired("I've been short of breath since this morning")).toEqual([]);
    expect(fired("I suddenly got short of breath")).toEqual(["pulmonary_embolism"]);
    expect(fired("I've had crushing chest pain since this morning and I'm short of breath.")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    // …but new weakness of a limb, or a testicle's pain that woke him, need no more than a recent start.
    expect(fired("I can't lift my right arm since this morning")).toEqual(["stroke_signs"]);
    expect(fired("I can't lift my right arm since the stroke I had in 2019")).toEqual([]);
    expect(fired("the pain in his left testicle woke him up")).toEqual(["testicular_torsion"]);
    expect(fired("I've had an ache in my left testicle on and off for months")).toEqual([]);
  });
});
