import { loadOntologyFile } from "../../../../src/ontology/ontology-files.ts";
import { describe, expect, it } from "vitest";
import type { DialogueState, DoctorAction } from "../../../../src/cmas/schemas.ts";
import { buildEmbeddedEngine } from "../../../../src/modules/embedded/index.ts";
import type { DialogueTurn } from "../../../../src/language/module-interfaces.ts";
import { asked, dataset, play, plannerFrom, speak, turns } from "./helpers.ts";

/**
 * A live patient who asks the doctor to repeat or explain ("Sorry, can you repeat that?", "What do
 * you mean by phlegm?") hears the same question again, more plainly, once; asking again moves the
 * history on. The MediTOD benchmark (no `askOn`, transcript wording) keeps its moves and words.
 * Written before the code.
 */

const planner = plannerFrom();
const live = buildEmbeddedEngine(dataset, "train", { wording: "clean" });
const benchmark = buildEmbeddedEngine(dataset, "train");

const cough: DialogueState = { positive_symptom: [{ value: "coughing", onset: "a week ago" }] };
const opened = turns("What brings you in today?", "I've had a cough for a week.");
const firstQuestion = planner.decide(opened, cough, { askOn: true });
/** The history after the doctor's first question and the patient's request. */
const afterRequest = (request: string): DialogueTurn[] => [
  ...opened,
  { speaker: "doctor", text: speak(firstQuestion.actions) },
  { speaker: "patient", text: request },
];

/** The live closing question (with ideas, concerns and expectations), as the templates word it. */
const closingQuestion = loadOntologyFile("nlg-templates.json").templates["chit-chat/closing"]!;
/** How the live NLG asks each of ideas, concerns and expectations. */
const ICE = {
  ideas: loadOntologyFile("nlg-templates.json").templates["chit-chat/ice:ideas"]!,
  concerns: loadOntologyFile("nlg-templates.json").templates["chit-chat/ice:concerns"]!,
  expectations: loadOntologyFile("nlg-templates.json").templates["chit-chat/ice:expectations"]!,
};

describe("the planner asks the same question again once, in a live history", () => {
  it.each([
    "Sorry, can you repeat that?",
    "What do you mean?",
    "I don't understand the question.",
    "What do you mean by phlegm?",
  ])("%s → the same question", (request) => {
    const again = planner.decide(afterRequest(request), cough, { askOn: true });
    expect(again.reason).toBe("repeat");
    expect(asked(again.actions)).toEqual(asked(firstQuestion.actions.filter((action) => action.action === "inquire")));
  });

  it("moves on when the patient asks again right after the question was asked again", () => {
    const history = afterRequest("Sorry, can you repeat that?");
    const again = planner.decide(history, cough, { askOn: true });
    const second = planner.decide(
      [
        ...history,
        { speaker: "doctor", text: speak(again.actions) },
        { speaker: "patient", text: "Sorry, I still don't understand." },
      ],
      cough,
      { askOn: true },
    );
    expect(second.reason).not.toBe("repeat");
    const inquiries = second.actions.filter((action) => action.action === "inquire");
    expect(inquiries.length).toBeGreaterThan(0);
    expect(asked(inquiries)).not.toEqual(asked(again.actions));
  });

  it("leaves the benchmark's move alone: no repeat without askOn", () => {
    expect(planner.decide(afterRequest("Sorry, can you repeat that?"), cough).reason).not.toBe("repeat");
  });

  it("asks the closing question again, and never turns a request into the diagnosis", () => {
    const history = play(planner, "I've had a cough for a week.", cough, undefined, 90, true);
    expect(history.steps.at(-1)!.decision.reason).toBe("closing");
    const closing: DialogueTurn[] = [
      ...history.history,
      { speaker: "doctor", text: "Do you have any questions for me?" },
      { speaker: "patient", text: "Sorry, can you repeat that?" },
    ];
    const again = planner.decide(closing, history.state, { askOn: true });
    expect(again.reason).toBe("repeat");
    expect(again.actions).toEqual([{ action: "chit-chat" }]);
  });

  it("asks the opening line (the dialogue manager's, not a plan item) again as a chit-chat the NLG words", () => {
    const again = planner.decide(turns("What brings you in today?", "Sorry, what do you mean?"), {}, { askOn: true });
    expect(again).toMatchObject({ reason: "repeat", actions: [{ action: "chit-chat" }] });
  });

  it("asks a new question again when the patient asks about it after the doctor moved on", () => {
    const history = afterRequest("Sorry, can you repeat that?");
    const again = planner.decide(history, cough, { askOn: true });
    history.push({ speaker: "doctor", text: speak(again.actions) }, { speaker: "patient", text: "Pardon?" });
    const onward = planner.decide(history, cough, { askOn: true });
    history.push({ speaker: "doctor", text: speak(onward.actions) }, { speaker: "patient", text: "What do you mean?" });
    const third = planner.decide(history, cough, { askOn: true });
    expect(third.reason).toBe("repeat");
    expect(asked(third.actions)).toEqual(asked(onward.actions.filter((action) => action.action === "inquire")));
  });
});

const sputum: DoctorAction[] = [{ action: "inquire", symptom: [{ value: "colored/excess sputum" }] }];
const say = async (engine: typeof live, history: DialogueTurn[], actions: DoctorAction[]) =>
  (await engine.nlg.realise({ history, actions })).text;

describe("the live NLG words the question again more plainly", () => {
  const asking = (request: string): DialogueTurn[] => [
    ...opened,
    { speaker: "doctor", text: "OK, and have you had any sputum?" },
    { speaker: "patient", text: request },
  ];

  it("explains the lay term in everyday words, then asks again without the acknowledgement", async () => {
    expect(await say(live, asking("Sorry, can you repeat that?"), sputum)).toBe(
      "Sorry, let me put it more simply. By sputum, I mean the stuff you cough up from your chest. Have you had any sputum?",
    );
  });

  it("explains the word the patient asked about, and asks in their word", async () => {
    expect(await say(live, asking("What do you mean by phlegm?"), sputum)).toBe(
      "By phlegm, I mean the stuff you cough up from your chest. Have you had any phlegm?",
    );
  });

  it("asks a question with nothing to explain again as it is", async () => {
    const onset: DoctorAction[] = [
      { action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] },
    ];
    expect(await say(live, asking("Pardon?"), onset)).toBe("Of course, let me ask again. When did the cough start?");
  });

  it("says it will move on after a second request", async () => {
    const history: DialogueTurn[] = [
      ...asking("Sorry?  What do you mean?"),
      { speaker: "doctor", text: "By sputum, I mean the stuff you cough up." },
      { speaker: "patient", text: "I don't follow." },
    ];
    const fever: DoctorAction[] = [{ action: "chit-chat" }, { action: "inquire", symptom: [{ value: "fever" }] }];
    expect(await say(live, history, fever)).toBe("That's alright, let's move on. Have you had any fevers?");
  });

  /** The patient's ideas, concerns and expectations already heard: a lone chit-chat is then the closing. */
  const heard: DialogueTurn[] = [
    ...opened,
    { speaker: "doctor", text: ICE.ideas },
    { speaker: "patient", text: "I think it's a chest infection." },
    { speaker: "doctor", text: ICE.concerns },
    { speaker: "patient", text: "Not really." },
    { speaker: "doctor", text: ICE.expectations },
    { speaker: "patient", text: "Something to shift it." },
  ];

  it("asks the closing question again", async () => {
    const closing = closingQuestion;
    const history: DialogueTurn[] = [
      ...heard,
      { speaker: "doctor", text: closing },
      { speaker: "patient", text: "Sorry, can you repeat that?" },
    ];
    expect(await say(live, history, [{ action: "chit-chat" }])).toBe(`Of course. ${closing}`);
  });

  it("asks an ICE question again as itself, not as the closing", async () => {
    const history: DialogueTurn[] = [
      ...opened,
      { speaker: "doctor", text: ICE.ideas },
      { speaker: "patient", text: "Sorry, can you repeat that?" },
    ];
    expect(await say(live, history, [{ action: "chit-chat" }])).toBe(`Of course. ${ICE.ideas}`);
  });

  it("moves on to the closing question when nothing is left to ask", async () => {
    const closing = closingQuestion;
    const history: DialogueTurn[] = [
      ...heard,
      { speaker: "doctor", text: "OK, and have you had any sputum?" },
      { speaker: "patient", text: "Pardon?" },
      { speaker: "doctor", text: "Of course, let me ask again. Have you had any sputum?" },
      { speaker: "patient", text: "Sorry?  What do you mean?" },
    ];
    expect(await say(live, history, [{ action: "chit-chat" }])).toBe(`That's alright. ${closing}`);
  });

  it("asks the opening question again in other words", async () => {
    expect(
      await say(live, turns("What brings you in today?", "Sorry, what do you mean?"), [{ action: "chit-chat" }]),
    ).toBe("Of course. What is the main problem that brought you here today?");
  });

  it("leaves the benchmark's transcript wording alone", async () => {
    const text = await say(benchmark, asking("What do you mean by phlegm?"), sputum);
    expect(text).toBe(await say(benchmark, asking("Yes."), sputum).then((plain) => plain.replace(/^Yes, OK\. /, "")));
    expect(text).not.toMatch(/I mean|move on|ask again/);
  });
});
