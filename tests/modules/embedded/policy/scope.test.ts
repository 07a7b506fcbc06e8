import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../../../src/modules/embedded/index.ts";
import { templateFor } from "../../../../src/language/history-plan.ts";
import { loadHistoryPlan } from "../../../../src/language/history-plan.ts";

const plan = loadHistoryPlan();
const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });

/** The doctor's questions to a patient who opens with `opening` and then answers nothing useful. */
async function questionsAfter(opening: string, turns = 14): Promise<string[]> {
  const conversation = new Conversation(engine, { maxDoctorTurns: 40 });
  let outcome = await conversation.say(opening);
  const asked: string[] = [];
  for (let turn = 0; turn < turns && !outcome.ended; turn += 1) {
    asked.push(outcome.doctor!);
    outcome = await conversation.say("Hmm, I'm not sure.");
  }
  return asked;
}

describe("the history plan's scope", () => {
  it("covers a presenting complaint of every body system, each with its own review of systems", () => {
    const systems = [
      "cardiovascular",
      "respiratory",
      "gastrointestinal",
      "genitourinary",
      "neurological",
      "musculoskeletal",
      "dermatological",
      "psychiatric",
      "general",
    ];
    expect(plan.file.areas.map((area) => area.id).sort()).toEqual([...systems].sort());
    for (const system of systems)
      expect(
        plan.complaints.some((complaint) => complaint.area === system),
        system,
      ).toBe(true);
  });

  it("chooses a pain's template by its site", () => {
    expect(templateFor(plan, "pain", ["abdomen"]).id).toBe("abdominal_pain");
    expect(templateFor(plan, "pain", ["lower back"]).id).toBe("back_pain");
    expect(templateFor(plan, "pain", ["flank"]).id).toBe("flank_pain");
    expect(templateFor(plan, "pain", ["knee"]).id).toBe("joint_pain");
    expect(templateFor(plan, "pain", []).id).toBe("pain");
    expect(templateFor(plan, "headache").area).toBe("neurological");
  });

  it("asks a symptom it does not know the attributes cmas.json has questions for, the site only of symptoms felt somewhere", () => {
    const unknown = templateFor(plan, "tinnitus");
    expect(unknown.id).toBe("default");
    expect(unknown.steps.map((step) => step[0]!.check)).toEqual([
      "onset",
      "initiation",
      "location",
      "duration",
      "severity",
      "progression",
      "frequency",
      "characteristics",
      "ana_factors",
    ]);
    expect(unknown.steps.find((step) => step[0]!.check === "location")![0]!.when_locatable).toBe(true);
  });

  it("asks a headache's own questions (onset type, site, light sensitivity, nausea) and never whether there are headaches", async () => {
    const asked = await questionsAfter("I've had a headache for three days.");
    expect(asked).toContain("OK, and did the headache come on suddenly or gradually?");
    expect(asked.some((text) => /sensitivity to light/.test(text))).toBe(true);
    expect(asked.some((text) => /nausea or vomiting/.test(text))).toBe(true);
    expect(asked.some((text) => /any headaches\?/.test(text))).toBe(false);
  });

  it("follows burning on peeing with the urinary questions, not a headache", async () => {
    // Ten turns: what the patient thinks it is and what worries them come once the complaint is explored.
    const asked = await questionsAfter("It burns when I pee.", 10);
    for (const topic of [/blood in your urine/, /frequent peeing/, /side pain/, /fevers or chills/])
      expect(
        asked.some((text) => topic.test(text)),
        String(topic),
      ).toBe(true);
    expect(asked.some((text) => /headache/.test(text))).toBe(false);
  });

  it("never asks where a symptom with no site is", async () => {
    const asked = await questionsAfter("I've had ringing in my ears.", 6);
    expect(asked[0]).toMatch(/when did the ringing in your ears start\?/);
    expect(asked.some((text) => /\bwhere\b/.test(text))).toBe(false);
  });

  it("asks about thoughts of self-harm in low mood, and a yes escalates", async () => {
    const conversation = new Conversation(engine, { maxDoctorTurns: 40 });
    let outcome = await conversation.say("I've been feeling really down for two months.");
    for (let turn = 0; turn < 10 && !/harming yourself/.test(outcome.doctor!); turn += 1)
      outcome = await conversation.say("Hmm, I'm not sure.");
    expect(outcome.doctor).toMatch(/thoughts of harming yourself or ending your life\?$/);
    const answered = await conversation.say("Yes, sometimes.");
    expect(answered.escalation.map((flag) => flag.id)).toEqual(["suicidal_thoughts"]);
    expect(answered.doctor).toMatch(/crisis line/);
  });
});
