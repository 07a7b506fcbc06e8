import { beforeAll, describe, expect, it } from "vitest";
import { DialogueStateTracker } from "../../../../src/cmas/dialogue-state.ts";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { clinicalNote } from "../../../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../../../src/clinical/note-markdown.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { NluModule } from "../../../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/**
 * A late or missed period and a possible pregnancy, as a young woman with lower tummy pain tells them
 * (issue 20; found trying the chat): "my period is about 2 weeks late" said to "can you describe the
 * pain?" was the pain again, "about 6 weeks ago" to "when was your last period?" a pregnancy of six
 * weeks, "I'm on the pill" a pregnancy. Each reading beside a negative control, a near phrasing that
 * must not be read that way. None of the sentences is from a MediTOD dialogue.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

const OPENING = ["What brings you in today?", "I've got pain in my lower tummy."];
const PERIOD_QUESTION = "When was your last period, and is there any chance you could be pregnant?";

/** The frames' entries of `utterance` said to `question` after the opening, as "status slot: value" with attributes. */
async function entriesOf(question: string, utterance: string): Promise<Record<string, unknown>[]> {
  const history = [...OPENING, question].map((text, index) => ({
    speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
    text,
  }));
  const { frames } = await nlu.understand({ history, utterance });
  return (frames ?? []).flatMap((frame: NluFrame) =>
    Object.entries(frame.slots ?? {}).flatMap(([slot, entries]) =>
      (entries as Record<string, unknown>[]).map((entry) => ({ slot, ...entry })),
    ),
  );
}

/** Just "slot: value" of each entry. */
async function valuesOf(question: string, utterance: string): Promise<string[]> {
  return (await entriesOf(question, utterance)).map((entry) => `${String(entry.slot)}: ${String(entry.value)}`);
}

describe("a late or missed period", () => {
  it("'my period is about 2 weeks late' to 'can you describe the pain?' is a delayed period of two weeks, not the pain", async () => {
    expect(await entriesOf("Can you describe the pain?", "My period is about 2 weeks late.")).toEqual([
      { slot: "positive_symptom", value: "delayed menstruation", onset: "2 weeks ago" },
    ]);
  });

  it("negative control: 'it's a sharp pain' to the same question still describes the pain", async () => {
    expect(await entriesOf("Can you describe the pain?", "It's a sharp pain.")).toEqual([
      expect.objectContaining({ slot: "positive_symptom", value: "pain", positive_characteristics: ["sharp"] }),
    ]);
  });

  it("'Ive missed a period' (no apostrophe) and 'my period hasnt come' are a delayed period", async () => {
    expect(await valuesOf(PERIOD_QUESTION, "Ive missed a period")).toEqual(["positive_symptom: delayed menstruation"]);
    expect(await valuesOf(PERIOD_QUESTION, "my period hasnt come this month")).toEqual([
      "positive_symptom: delayed menstruation",
    ]);
  });

  it("negative controls: 'I haven't missed any periods', 'it came on time' and 'I'm 10 minutes late' are none", async () => {
    expect(await valuesOf(PERIOD_QUESTION, "I haven't missed any periods.")).not.toContain(
      "positive_symptom: delayed menstruation",
    );
    expect(await valuesOf("Any other symptoms?", "My period came on time this month.")).toEqual([]);
    expect(
      await valuesOf("Any other symptoms?", "Sorry I'm 10 minutes late, the tummy pain is still there."),
    ).not.toContain("positive_symptom: delayed menstruation");
  });
});

describe("the last period", () => {
  it("'about 6 weeks ago' to 'when was your last period?' dates the last period, not a pregnancy", async () => {
    expect(await entriesOf(PERIOD_QUESTION, "about 6 weeks ago")).toEqual([
      { slot: "positive_medical_history", value: "last menstrual period", starting: "6 weeks ago" },
    ]);
  });

  it("negative control: 'about 6 weeks ago' to 'when did the pain start?' is the pain's onset", async () => {
    expect(await entriesOf("When did the pain start?", "about 6 weeks ago")).toEqual([
      expect.objectContaining({ slot: "positive_symptom", value: "pain", onset: "6 weeks ago" }),
    ]);
  });

  it("'tummy pain, my last period was 6 weeks ago' dates the period, never the pain; negative control: 'tummy pain for 6 weeks' dates the pain", async () => {
    const volunteered = await entriesOf(
      "What brings you in today?",
      "I've had tummy pain, my last period was 6 weeks ago.",
    );
    expect(volunteered).toContainEqual({
      slot: "positive_medical_history",
      value: "last menstrual period",
      starting: "6 weeks ago",
    });
    expect(volunteered.find((entry) => entry.value === "pain")).not.toHaveProperty("onset");
    const control = await entriesOf("What brings you in today?", "I've had tummy pain for 6 weeks.");
    expect(control.find((entry) => entry.value === "pain")).toHaveProperty("onset", "6 weeks ago");
  });
});

describe("a possible pregnancy", () => {
  it("'I might be pregnant', 'could be pregnant', 'maybe' and a bare 'yes' to 'any chance…?' make it possible, not known", async () => {
    for (const said of ["I might be pregnant", "could be pregnant", "maybe", "yes"])
      expect(await valuesOf(PERIOD_QUESTION, said), said).toEqual(["unknown_medical_history: pregnancy"]);
  });

  it("negative controls: 'yes' to 'are you pregnant?' and 'I'm 8 weeks pregnant' are a pregnancy, dated", async () => {
    expect(await valuesOf("Are you pregnant?", "yes")).toEqual(["positive_medical_history: pregnancy"]);
    expect(await entriesOf(PERIOD_QUESTION, "I'm 8 weeks pregnant")).toEqual([
      { slot: "positive_medical_history", value: "pregnancy", starting: "8 weeks ago" },
    ]);
  });

  it("'did a test, it was positive' is a pregnancy and a pregnancy test; negative control: 'negative' is none", async () => {
    expect(await valuesOf(PERIOD_QUESTION, "did a test, it was positive")).toEqual([
      "avail_medical_test: pregnancy test",
      "positive_medical_history: pregnancy",
    ]);
    expect(await valuesOf(PERIOD_QUESTION, "did a test, it was negative")).toEqual([
      "avail_medical_test: pregnancy test",
      "negative_medical_history: pregnancy",
    ]);
  });

  it("'I'm on the pill' says nothing of a pregnancy either way; negative control: 'no, I'm on the pill' rules it out", async () => {
    expect(await valuesOf(PERIOD_QUESTION, "I'm on the pill")).not.toContainEqual(expect.stringMatching(/pregnancy/));
    expect(await valuesOf(PERIOD_QUESTION, "no, I'm on the pill")).toEqual(["negative_medical_history: pregnancy"]);
  });

  it("'a couple of weeks ago, no chance' dates the last period and rules a pregnancy out", async () => {
    expect(await entriesOf(PERIOD_QUESTION, "a couple of weeks ago, no chance")).toEqual([
      { slot: "positive_medical_history", value: "last menstrual period", starting: "couple of weeks ago" },
      { slot: "negative_medical_history", value: "pregnancy" },
    ]);
  });
});

describe("the note of a late period and a possible pregnancy", () => {
  it("lists the late period, the last period's first day and the possible pregnancy, and denies nothing", async () => {
    const tracker = new DialogueStateTracker();
    for (const [question, answer] of [
      ["What brings you in today?", "I've got pain in my lower tummy."],
      [PERIOD_QUESTION, "about 6 weeks ago, and my period is 2 weeks late"],
      ["Is there any chance you could be pregnant?", "I might be"],
    ] as const) {
      const { frames } = await nlu.understand({ history: [{ speaker: "doctor", text: question }], utterance: answer });
      tracker.update(frames ?? []);
    }
    const markdown = noteToMarkdown(clinicalNote({ state: tracker.state() }));
    expect(markdown).toContain("- delayed menstruation — onset: 2 weeks ago");
    expect(markdown).toContain("- last menstrual period — first day: 6 weeks ago");
    expect(markdown).toContain("- Unsure: pregnancy");
    expect(markdown).not.toContain("Denies");
  });
});

describe("bleeding in a woman who is or may be pregnant (found trying the chat)", () => {
  it("'im 28 weeks pregnant and ive had some bleeding' is vaginal bleeding (it was lost); 'I've been spotting' to the pregnancy question too", async () => {
    expect(
      await valuesOf("What brings you in today?", "hi, im 28 weeks pregnant and ive had some bleeding this morning"),
    ).toEqual(["positive_medical_history: pregnancy", "positive_symptom: vaginal bleeding"]);
    expect(await valuesOf(PERIOD_QUESTION, "I might be, and I've been spotting")).toContain(
      "positive_symptom: vaginal bleeding",
    );
  });

  it("negative controls: 'no bleeding' denies it; a nose that bleeds is a nosebleed; bleeding with no pregnancy in view is not read so", async () => {
    expect(await valuesOf("What brings you in today?", "I'm pregnant, no bleeding but some cramps")).toContain(
      "negative_symptom: vaginal bleeding",
    );
    expect(await valuesOf("What brings you in today?", "im pregnant and my nose has been bleeding")).toEqual([
      "positive_medical_history: pregnancy",
      "positive_symptom: epistaxis",
    ]);
    expect(await valuesOf("Any other symptoms?", "I cut myself shaving and it was bleeding a lot")).not.toContain(
      "positive_symptom: vaginal bleeding",
    );
  });
});
