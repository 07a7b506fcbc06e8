import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { loadHistoryPlan } from "../../../../src/language/history-plan.ts";
import { literalPrefix, mayMatch, prefilterText } from "../../../../src/modules/embedded/policy/cue-prefilter.ts";

describe("the cue prefilter", () => {
  it("reads the literal start of a pattern, and none where a match need not start with it", () => {
    expect(literalPrefix("\\bfevers?\\b")).toBe("fever");
    expect(literalPrefix("\\bchest (pain|tightness)\\b")).toBe("chest ");
    expect(literalPrefix("\\bwheez")).toBe("wheez");
    // Negative controls: an alternation at the top, a group first, an optional first letter, too short.
    expect(literalPrefix("\\bfevers?\\b|\\bchills\\b")).toBeNull();
    expect(literalPrefix("\\b(pain|tightness) in your chest\\b")).toBeNull();
    expect(literalPrefix("\\bs?he\\b")).toBeNull();
    expect(literalPrefix("\\bno\\b")).toBeNull();
  });

  it("never rules out a cue that matches: every plan cue over every bundled MediTOD utterance", () => {
    const plan = loadHistoryPlan();
    const cues = [
      ...plan.items.flatMap((item) => [...item.cues, ...[...item.valueCues.values()].flat()]),
      ...plan.complaints.flatMap((complaint) => complaint.cues),
      ...[...plan.companionCues.values()].flat(),
      ...[...plan.checkCues.values()].flat(),
    ];
    const texts = [...loadMeditod().dialogues.values()].flatMap((dialogue) =>
      dialogue.utterances.map((utterance) => utterance.text),
    );
    texts.push("Any chest pain? So, FEVERS or ſweats?");
    let ruledOut = 0;
    for (const text of texts) {
      const prepared = prefilterText(text);
      for (const cue of cues) {
        if (mayMatch(cue, prepared)) continue;
        ruledOut += 1;
        expect(cue.test(text), `${cue} on ${text}`).toBe(false);
      }
    }
    // It does rule out most of them: the point of it.
    expect(ruledOut).toBeGreaterThan((texts.length * cues.length) / 2);
  });
});
