import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../../../src/modules/embedded/index.ts";
import { realiseFromTemplates } from "../../../../src/modules/embedded/nlg.ts";
import { askOf, inquire } from "../../../../src/modules/embedded/policy/actions.ts";
import { loadHistoryPlan } from "../../../../src/language/history-plan.ts";
import { loadOntologyFile } from "../../../../src/ontology/ontology-files.ts";

/**
 * What the doctor says to a lay patient (issue 14, "Understanding"): every question the plan can ask
 * in lay words, age and sex asked when unknown, and never a bare acknowledgement while the history
 * is open. Written before the code.
 */

const plan = loadHistoryPlan();
const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
const lexicon = loadOntologyFile("lexicon.json");

/**
 * The ontology's clinical names: values whose name is a medical term (Greek and Latin endings such as
 * -itis, -uria, -pnea, -algia: "dysuria", "pharyngitis", "dyspnea"). A patient hears the lay term.
 */
const CLINICAL_TERM =
  /\b\w+(?:itis|osis|uria|algia|pnoea|pnea|phagia|rrhoea|rrhea|emia|aemia|ysis|ptysis|phobia|esis|ezia|chezia|ncope|plegia|opathy|odynia|ageusia|anosmia|pruritus|asthenia|paresthesia|bedridden|pyrosis|dysphonia|orthopnea)\b/i;

/** Every value the plan can ask about, with its slot: plan items, complaint steps, and every lexicon symptom. */
function askableValues(): Array<readonly [slot: string, value: string]> {
  const pairs = new Map<string, readonly [string, string]>();
  for (const item of plan.items)
    for (const value of item.values) pairs.set(`${item.slot}:${value}`, [item.slot, value]);
  for (const complaint of plan.complaints) {
    for (const symptom of complaint.symptoms) pairs.set(`symptom:${symptom}`, ["symptom", symptom]);
    for (const part of complaint.steps.flat())
      if (part.value !== "$") pairs.set(`symptom:${part.value}`, ["symptom", part.value]);
  }
  for (const value of Object.keys(lexicon.concepts.symptom ?? {})) pairs.set(`symptom:${value}`, ["symptom", value]);
  return [...pairs.values()];
}

const SYMPTOM_CHECKS = [
  "onset",
  "initiation",
  "location",
  "duration",
  "severity",
  "progression",
  "frequency",
  "characteristics",
  "ana_factors",
] as const;

describe("every question the plan can ask is in lay words", () => {
  const questions = askableValues().flatMap(([slot, value]) => {
    const checks = slot === "symptom" ? [undefined, ...SYMPTOM_CHECKS] : [undefined];
    return checks.map(
      (check) =>
        [
          `${slot}:${value}${check ? `/${check}` : ""}`,
          realiseFromTemplates(inquire([askOf(slot, value, check)])),
        ] as const,
    );
  });

  it("knows a few hundred questions", () => {
    expect(questions.length).toBeGreaterThan(300);
  });

  it("shows no clinical name where a lay term exists ('can you describe the dysuria?' must not happen)", () => {
    // A word that is itself the lay term of its value ("diarrhea") is what patients say.
    const layWords = new Set(Object.values(loadOntologyFile("lay-terms.json").terms).map((term) => term.toLowerCase()));
    const clinical = questions
      .filter(([, text]) =>
        [...text.toLowerCase().matchAll(new RegExp(CLINICAL_TERM, "gi"))].some(([word]) => !layWords.has(word)),
      )
      .map(([key, text]) => `${key}: ${text}`);
    expect(clinical).toEqual([]);
  });

  it("asks about one symptom's detail in the singular ('where is the headache?', not 'the headaches')", () => {
    expect(realiseFromTemplates(inquire([askOf("symptom", "headache", "location")]))).toMatch(
      /where is the headache\?/,
    );
    expect(realiseFromTemplates(inquire([askOf("symptom", "fever", "onset")]))).toMatch(/when did the fever start\?/);
    expect(realiseFromTemplates(inquire([askOf("symptom", "dysuria", "characteristics")]))).not.toMatch(/dysuria/);
  });
});

describe("age and sex are asked when unknown", () => {
  async function questionsAfter(opening: string, turns: number): Promise<string[]> {
    const conversation = new Conversation(engine, { maxDoctorTurns: 60 });
    let outcome = await conversation.say(opening);
    const asked: string[] = [];
    for (let turn = 0; turn < turns && !outcome.ended; turn += 1) {
      asked.push(outcome.doctor!);
      outcome = await conversation.say("No, nothing like that.");
    }
    return asked;
  }

  it("asks the age of a patient who has not given it", async () => {
    const asked = await questionsAfter("It burns when I pee.", 40);
    expect(asked.some((text) => /how old are you/i.test(text))).toBe(true);
  });

  it("does not ask the age of a patient who gave it", async () => {
    const asked = await questionsAfter("I'm a 45-year-old woman and it burns when I pee.", 40);
    expect(asked.some((text) => /how old are you/i.test(text))).toBe(false);
  });
});

describe("an acknowledgement is never the whole reply while the history is open", () => {
  it("answers a hedged answer with the next question", async () => {
    const conversation = new Conversation(engine, { maxDoctorTurns: 60 });
    await conversation.say("I've had a headache for three days.");
    const outcome = await conversation.say("drinking water maybe helps a bit?");
    expect(outcome.ended).toBe(false);
    expect(outcome.doctor).toMatch(/\?/);
  });

  it.each(["OK.", "Right.", "Thanks, doctor.", "I guess so?", "Hmm."])("after '%s'", async (said) => {
    const conversation = new Conversation(engine, { maxDoctorTurns: 60 });
    await conversation.say("I've been coughing for a week.");
    const outcome = await conversation.say(said);
    if (!outcome.ended) expect(outcome.doctor).toMatch(/\?/);
  });
});
