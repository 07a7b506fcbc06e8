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

describe("a yes that goes on to say all is as usual (found trying the chat)", () => {
  it("'yes plenty of wet nappies', 'yeah loads' and 'plenty' to 'fewer wet nappies than usual?' deny fewer wet nappies", async () => {
    for (const said of ["yes plenty of wet nappies", "yeah loads", "plenty"])
      expect(await answerTo("decreased urine output", said), said).toEqual(["negative:decreased urine output"]);
  });

  it("negative controls: 'yes, hardly any wet nappies', 'yeah a few less' and a bare 'yes' stay a yes", async () => {
    for (const said of ["yes, hardly any wet nappies", "yeah a few less", "yes"])
      expect(await answerTo("decreased urine output", said), said).toEqual(["positive:decreased urine output"]);
  });

  it("'yeah, as normal' and 'yes she's eating fine' to 'is she feeding less than usual?' are no poorer feeding (so before, by the topic word); 'yes she wont eat' is", async () => {
    for (const said of ["yeah, as normal", "yes she's eating fine"])
      expect(await answerTo("poor feeding", said), said).not.toContainEqual(expect.stringMatching(/^positive:/));
    expect(await answerTo("poor feeding", "yes she wont eat")).toContainEqual(expect.stringMatching(/^positive:/));
  });

  it("negative control: 'yes, fine now' to a question about no change from the usual ('any vomiting?') is still a yes", async () => {
    const history = [...OPENING, "Has she been vomiting?"].map((text, index) => ({
      speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
      text,
    }));
    const { frames } = await nlu.understand({ history, utterance: "yes, fine now" });
    expect(frames?.[0]?.slots?.positive_symptom).toEqual([expect.objectContaining({ value: "vomiting" })]);
  });
});

describe("a topic denied is its problem (found trying the chat: 'shes not eating' was read as eating well)", () => {
  /** The entries of `answer` to "how is her appetite?" after the opening, as "status:value". */
  const toAppetite = (answer: string) => answerTo("loss of appetite", answer);

  it("'shes not eating', 'she hasnt been eating much', 'she won't eat' are a loss of appetite", async () => {
    for (const said of ["shes not eating", "she hasnt been eating much", "she won't eat"])
      expect(await toAppetite(said), said).toContain("positive:loss of appetite");
  });

  it("negative controls: 'she hasn't had any problems eating', 'I haven't noticed anything with her eating' deny it", async () => {
    for (const said of ["she hasn't had any problems eating", "I haven't noticed anything with her eating"])
      expect(await toAppetite(said), said).toContain("negative:loss of appetite");
  });

  it("'shes drinking ok but not eating' is no alcohol for a toddler; negative control: 'she drinks wine' would be", async () => {
    const toddler = await toAppetite("shes drinking ok but not eating");
    expect(toddler).toContain("positive:loss of appetite");
    expect(toddler).not.toContain("positive:alcohol abuse");
    expect(await toAppetite("shes eating ok but drinks a lot of wine")).toContain("positive:alcohol abuse");
  });
});
