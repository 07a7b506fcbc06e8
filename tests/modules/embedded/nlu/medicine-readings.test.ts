import { beforeAll, describe, expect, it } from "vitest";
import type { MedicineMention } from "../../../../src/language/medicines.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { NluModule } from "../../../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";
import { loadOntologyFile } from "../../../../src/ontology/ontology-files.ts";

/**
 * Each medicine by name with its dose and frequency (issue 20, items 3 and 7): the record the NLU
 * reports beside the CMAS medication slot. Hand-written, none from a MediTOD dialogue; each reading
 * with a negative control.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

async function medicinesOf(question: string, utterance: string): Promise<readonly MedicineMention[]> {
  const result = await nlu.understand({ history: [{ speaker: "doctor", text: question }], utterance });
  return result.medicines ?? [];
}

const ASKED = "Do you take any medicines regularly?";

describe("a medicine by name, with lay and brand names", () => {
  it.each([
    ["Paracetamol when I need it.", "paracetamol", null, "when I need it"],
    ["Just Tylenol, 1000 mg three times a day.", "paracetamol", "1000 mg", "three times a day"],
    ["Cocodamol, two tablets every 4 hours.", "co-codamol", "two tablets", "every 4 hours"],
    ["I've got a Ventolin inhaler, 2 puffs as needed.", "salbutamol inhaler", "2 puffs", "as needed"],
    ["My water pill, half a tablet each morning.", "water tablet (diuretic)", "half a tablet", "each morning"],
    ["Levothyroxine 100 micrograms daily.", "levothyroxine", "100 micrograms", "daily"],
    ["She has her GTN spray whenever she needs it.", "glyceryl trinitrate spray", null, "whenever she needs it"],
  ])('"%s" is %s, dose %s, %s', async (said, name, dose, frequency) => {
    expect(await medicinesOf(ASKED, said)).toEqual([{ name, dose, frequency }]);
  });

  it("a known medicine is read in any answer, not only to a question about medicines", async () => {
    expect(await medicinesOf("What have you tried for the pain?", "Some ibuprofen, 400mg twice a day.")).toEqual([
      { name: "ibuprofen", dose: "400mg", frequency: "twice a day" },
    ]);
  });

  it('negative controls: "I took the bus", "two a day" of cigarettes, "a glass of wine at night" name no medicine', async () => {
    expect(await medicinesOf("How did you get here today?", "I took the bus.")).toEqual([]);
    expect(await medicinesOf(ASKED, "I took the bus here, does that matter?")).toEqual([]);
    expect(await medicinesOf("Do you smoke?", "Yes, about two a day.")).toEqual([]);
    expect(await medicinesOf("Do you drink?", "A glass of wine at night.")).toEqual([]);
  });
});

describe("several medicines in one answer, each with its own dose and frequency", () => {
  it("ramipril in the morning and atorvastatin at night", async () => {
    expect(await medicinesOf(ASKED, "I take ramipril 5mg in the morning and atorvastatin at night")).toEqual([
      { name: "ramipril", dose: "5mg", frequency: "in the morning" },
      { name: "atorvastatin", dose: null, frequency: "at night" },
    ]);
  });

  it("doses said before the names", async () => {
    expect(await medicinesOf(ASKED, "10mg of amlodipine, and 500 mg metformin twice a day.")).toEqual([
      { name: "amlodipine", dose: "10mg", frequency: null },
      { name: "metformin", dose: "500 mg", frequency: "twice a day" },
    ]);
  });

  it("negative control: one medicine's dose is not another's", async () => {
    const [first, second] = await medicinesOf(ASKED, "Omeprazole 20mg every morning, and sertraline.");
    expect(first).toEqual({ name: "omeprazole", dose: "20mg", frequency: "every morning" });
    expect(second).toEqual({ name: "sertraline", dose: null, frequency: null });
  });
});

describe("an unknown medicine is kept as said, in an answer about medicines", () => {
  it('"zelvorin 25mg at bedtime" and "I\'m on perindopril"', async () => {
    expect(await medicinesOf(ASKED, "Zelvorin 25mg at bedtime.")).toEqual([
      { name: "zelvorin", dose: "25mg", frequency: "at bedtime" },
    ]);
    expect(await medicinesOf(ASKED, "I'm on perindopril.")).toEqual([
      { name: "perindopril", dose: null, frequency: null },
    ]);
  });

  it("negative controls: outside a medicines answer an unknown word is no medicine; everyday words never are", async () => {
    expect(await medicinesOf("Where do you work?", "I'm on zelvorin street, 25mg of nothing.")).toEqual([]);
    expect(await medicinesOf(ASKED, "I'm on holiday next week, I take walks every day.")).toEqual([]);
  });
});

describe("a medicine not taken is not recorded", () => {
  it.each([
    "I'm not on any blood thinners.",
    "I'm allergic to penicillin.",
    "I stopped the simvastatin last year.",
    "No, I don't take aspirin.",
    "penicillin gives me a rash",
    "Amoxicillin brought me out in hives as a kid",
    "codeine makes my lips swell up",
  ])('"%s" records nothing', async (said) => {
    expect(await medicinesOf(ASKED, said)).toEqual([]);
  });

  it("negative controls: a side effect of a medicine taken, and a reaction told in another clause, leave it taken", async () => {
    expect(await medicinesOf(ASKED, "ramipril 5mg once a day, it gives me a bit of a cough")).toEqual([
      { name: "ramipril", dose: "5mg", frequency: "once a day" },
    ]);
    expect(await medicinesOf(ASKED, "I take amlodipine daily, and penicillin gives me a rash")).toEqual([
      { name: "amlodipine", dose: null, frequency: "daily" },
    ]);
  });

  it("negative control: a denial in another clause leaves a medicine taken", async () => {
    expect(await medicinesOf(ASKED, "I'm allergic to penicillin but I take omeprazole daily.")).toEqual([
      { name: "omeprazole", dose: null, frequency: "daily" },
    ]);
  });
});

describe("a dose or frequency said alone is the last-named medicine's", () => {
  it('"How much do you take?" — "500mg twice a day"', async () => {
    expect(await medicinesOf("How much of it do you take?", "500mg twice a day")).toEqual([
      { name: null, dose: "500mg", frequency: "twice a day" },
    ]);
  });

  it("negative control: a frequency alone after a question about another topic is nothing", async () => {
    expect(await medicinesOf("How often do you get the headaches?", "Twice a day.")).toEqual([]);
  });
});

describe("ontology/medicines.json's own examples", () => {
  for (const example of loadOntologyFile("medicines.json").examples)
    it(`"${example.answer}"`, async () => {
      expect(await medicinesOf(example.question, example.answer)).toEqual(example.medicines);
    });
});

describe("'for X' after several medicines is the purpose of the one it belongs to", () => {
  async function purposes(utterance: string): Promise<Record<string, string | undefined>> {
    const { frames } = await nlu.understand({ history: [{ speaker: "doctor", text: ASKED }], utterance });
    const taken = (frames ?? []).flatMap((frame) => frame.slots?.positive_medication ?? []);
    return Object.fromEntries(taken.map((entry) => [String(entry.value), entry.respone_to as string | undefined]));
  }

  it("'metformin and ramipril for my blood pressure': the blood pressure is ramipril's, not metformin's", async () => {
    expect(await purposes("I take metformin and ramipril for my blood pressure")).toEqual({
      metformin: undefined,
      "antihypertensive agents": "hypertensive disease",
    });
  });

  it("'amlodipine 5mg and paracetamol for the pain': the pain is paracetamol's", async () => {
    expect(await purposes("I take amlodipine 5mg and paracetamol for the pain")).toEqual({
      "antihypertensive agents": undefined,
      acetaminophen: "pain",
    });
  });

  it("negative control: 'metformin for diabetes, and atorvastatin': the purpose said right after it stays metformin's", async () => {
    expect(await purposes("metformin for diabetes, and atorvastatin")).toEqual({
      metformin: "diabetes mellitus",
      statins: undefined,
    });
  });
});

describe("a dose said as a bare number after the name", () => {
  it("'atorvastatin 20 at night' keeps its dose 20; negative controls: '2 times a day' and '3 years now' are no dose", async () => {
    expect(await medicinesOf(ASKED, "ramipril 5mg once a day and atorvastatin 20 at night")).toEqual([
      { name: "ramipril", dose: "5mg", frequency: "once a day" },
      { name: "atorvastatin", dose: "20", frequency: "at night" },
    ]);
    expect(await medicinesOf(ASKED, "aspirin 2 times a day")).toEqual([
      { name: "aspirin", dose: null, frequency: "2 times a day" },
    ]);
    expect(await medicinesOf(ASKED, "metformin 3 years now")).toEqual([
      { name: "metformin", dose: null, frequency: null },
    ]);
  });
});
