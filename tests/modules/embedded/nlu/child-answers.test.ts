import { beforeAll, describe, expect, it } from "vitest";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { DialogueTurn, NluModule } from "../../../../src/language/module-interfaces.ts";
import { realiseFromTemplates } from "../../../../src/modules/embedded/nlg.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/**
 * A child's questions are asked so that a parent's yes or no answers them (issue 20, item 5): "has
 * she had fewer wet nappies than usual?", "is she more drowsy, floppy or irritable than usual?" — an
 * either/or question ("as usual, or drowsy?") made a bare "yes" mean the last thing named.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

const OPENING = ["What brings you in today?", "My 8 month old has had a fever since yesterday."];
const PARENT = { relation: "parent", patientAge: "8 months", patientSex: "female" } as const;

/** The state entries the parent's answer to the child question for `value` gives, as "status:value". */
async function answerTo(value: string, answer: string): Promise<string[]> {
  const question = realiseFromTemplates([{ action: "inquire", symptom: [{ value }] }], true, PARENT);
  const history: DialogueTurn[] = [...OPENING, question].map((text, index) => ({
    speaker: index % 2 === 0 ? "doctor" : "patient",
    text,
  }));
  const { frames } = await nlu.understand({ history, utterance: answer });
  return (frames ?? []).flatMap((frame: NluFrame) =>
    Object.entries(frame.slots ?? {}).flatMap(([slot, entries]) =>
      (entries as { value?: string }[]).map((entry) => `${slot.split("_")[0]!}:${entry.value ?? ""}`),
    ),
  );
}

describe("a parent's yes and no to a child's questions", () => {
  it("asks each as a yes/no question", () => {
    for (const value of ["decreased urine output", "behaviour change"])
      expect(realiseFromTemplates([{ action: "inquire", symptom: [{ value }] }], true, PARENT)).not.toMatch(
        /\bor\b.*\bor\b.*,\s*or\b|as usual,/,
      );
  });

  it("'no, plenty of wet nappies' denies fewer wet nappies; 'yes, only one today' reports them", async () => {
    expect(await answerTo("decreased urine output", "No, plenty of wet nappies.")).toContain(
      "negative:decreased urine output",
    );
    expect(await answerTo("decreased urine output", "Yes, only one today.")).toContain(
      "positive:decreased urine output",
    );
  });

  it("'yes, she's very sleepy' is a change of behaviour; 'no, she's her usual self' is none", async () => {
    expect(
      (await answerTo("behaviour change", "Yes, she's very sleepy.")).some((entry) => entry.startsWith("positive:")),
    ).toBe(true);
    expect(
      (await answerTo("behaviour change", "No, she's her usual self.")).some((entry) => entry.startsWith("positive:")),
    ).toBe(false);
  });
});
