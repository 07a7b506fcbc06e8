import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { buildEmbeddedNlg, joinAlternatives, layTerm, realiseFromTemplates } from "../../../src/modules/embedded/nlg.ts";
import { loadTrainingData } from "../../../src/modules/embedded/training-data.ts";
import type { DoctorAction } from "../../../src/cmas/schemas.ts";

const dataset = loadMeditod();
const training = loadTrainingData(dataset, "train");
const nlg = buildEmbeddedNlg(training);
const say = async (actions: DoctorAction[]) => (await nlg.realise({ history: [], actions })).text;

describe("embedded NLG", () => {
  it("reuses a training utterance for exactly its actions", async () => {
    const turn = dataset.dialogues.get("115")!.utterances[2]!;
    expect(turn.speaker).toBe("doctor");
    if (turn.speaker === "doctor") expect(await say(turn.actions)).toBe(turn.text);
  });

  it("rewords a training utterance of the same shape with the new value in lay terms", async () => {
    const text = await say([{ action: "inquire", symptom: [{ value: "nausea" }] }]);
    expect(text.toLowerCase()).toContain("nausea");
    expect(text).toMatch(/\?$/);
    const dyspnea = await say([{ action: "inquire", symptom: [{ value: "dyspnea", checks: [{ type: "onset" }] }] }]);
    expect(dyspnea).toContain("shortness of breath");
    expect(dyspnea).not.toContain("dyspnea");
  });

  it("says a short answer back before the next question, in transcript wording only", async () => {
    const actions: DoctorAction[] = [{ action: "inquire", symptom: [{ value: "nausea" }] }];
    const history = [
      { speaker: "doctor" as const, text: "Any chest pain?" },
      { speaker: "patient" as const, text: "Uh, no." },
    ];
    expect((await nlg.realise({ history, actions })).text).toMatch(/^No, OK\. And .*nausea/);
    // A long answer is not echoed, and the clean wording (the chat) never echoes.
    const long = [history[0]!, { speaker: "patient" as const, text: "No, I haven't had anything like that at all." }];
    expect((await nlg.realise({ history: long, actions })).text).not.toMatch(/^No/);
    expect((await buildEmbeddedNlg(training, "clean").realise({ history, actions })).text).toMatch(/^OK, and/);
    // Structure names are spoken as the body part.
    expect(layTerm("structure of calf of leg")).toBe("calf");
  });

  it("words unseen shapes from the ontology templates and joins several actions", async () => {
    const text = await say([
      { action: "inquire", travel: [{ value: "other" }] },
      { action: "inquire", occupation: [{ value: "other" }] },
    ]);
    expect(text).toMatch(/travel/i);
    expect(text).toMatch(/work/i);
    expect(realiseFromTemplates([{ action: "inquire", symptom: [{ value: "fever" }, { value: "chills" }] }])).toBe("OK, and have you had any fevers or chills?");
    expect(realiseFromTemplates([{ action: "inquire", symptom: [{ value: "pain", checks: [{ type: "severity" }] }] }])).toBe("OK, and on a scale of one to ten, how bad is the pain?");
  });

  it("speaks placeholder values by slot and joins alternatives", () => {
    expect(realiseFromTemplates([{ action: "inquire", medication: [{ value: "other" }] }])).toBe("OK, and are you taking any other medications?");
    expect(layTerm("dyspnea")).toBe("shortness of breath");
    expect(layTerm("some rare finding")).toBe("some rare finding");
    expect(joinAlternatives(["a", "b", "c"])).toBe("a, b or c");
  });

  it("answers every doctor turn of the valid split with non-empty text", async () => {
    const turns = [...dataset.dialogues.get("317")!.utterances.entries()].filter(([index, utterance]) => index > 0 && utterance.speaker === "doctor");
    for (const [, utterance] of turns) {
      if (utterance.speaker !== "doctor") continue;
      const result = await nlg.realise({ history: [], actions: utterance.actions });
      expect(result.text.length).toBeGreaterThan(1);
    }
  });
});

describe("embedded NLG, clean wording (the chat)", () => {
  it("speaks from our templates, never from disfluent transcripts", async () => {
    const clean = buildEmbeddedNlg(training, "clean");
    const turn = dataset.dialogues.get("115")!.utterances[12]!;
    if (turn.speaker !== "doctor") throw new Error("expected a doctor turn");
    const text = (await clean.realise({ history: [], actions: turn.actions })).text;
    expect(text).toBe("OK, and when did the shortness of breath start?");
    expect(text).not.toBe(turn.text);
  });
});
