import { describe, expect, it } from "vitest";
import { NLU_PASSES } from "../../../../src/modules/embedded/nlu/pipeline.ts";
import type { TurnRecord } from "../../../../src/modules/embedded/nlu/turn-record.ts";
import { readTurn, spanText } from "./nlu-harness.ts";

/** What a turn record holds, compactly. */
const readings = (turn: TurnRecord) =>
  turn.readings.map((reading) => [spanText(turn, reading.mention), reading.concept.value, reading.status]);
const entries = (turn: TurnRecord) =>
  turn.entries.all().map((entry) => ({ slot: entry.base, status: entry.status, ...entry.attributes }));

describe("the NLU pipeline (nlu/pipeline.ts), one pass at a time", () => {
  it("runs its passes in the documented order", () => {
    expect(NLU_PASSES.map((pass) => pass.name)).toEqual([
      "mentions",
      "filters before status",
      "certainty",
      "filters after status",
      "entries",
      "allergic reactions",
      "denied allergies",
      "medication purpose",
      "question asked back",
      "periods and pregnancy",
      "named answers",
      "asked attribute",
      "corrections",
      "site answers",
      "yes/no answers",
      "choice answers",
      "temperatures said",
      "sick contacts",
      "past episodes",
      "volunteered attributes",
      "back-references",
      "separate pains",
      "repeats",
      "small talk",
      "frames",
    ]);
  });

  it("mentions: a shortened name of an asked item is that item", () => {
    const turn = readTurn(
      { question: "Any fevers, chills or night sweats?", utterance: "No fevers or sweats." },
      "mentions",
    );
    expect(turn.readings.map((reading) => reading.concept.value)).toEqual(["fever", "night sweats"]);
  });

  it("certainty: a denial governs the list that follows it", () => {
    const turn = readTurn(
      { question: "Have you had a cough?", utterance: "No cough, no fever or chills." },
      "certainty",
    );
    expect(readings(turn)).toEqual([
      ["cough", "coughing", "negative"],
      ["fever", "fever", "negative"],
      ["chills", "chills", "negative"],
    ]);
  });

  it("entries: a relative's condition is family history, a husband's smoking indoors is passive smoking", () => {
    expect(
      entries(
        readTurn(
          { question: "Does anyone in your family have lung problems?", utterance: "My mother had asthma." },
          "entries",
        ),
      ),
    ).toEqual([{ slot: "family_history", status: "positive", value: "asthma" }]);
    expect(
      entries(readTurn({ question: "Do you smoke?", utterance: "My husband smokes inside the house." }, "entries")),
    ).toEqual([{ slot: "habit", status: "positive", value: "passive smoking" }]);
  });

  it("allergic reactions: 'penicillin gives me a rash' is a drug allergy, not a rash or a medication", () => {
    expect(
      entries(
        readTurn(
          { question: "Are you taking any medications?", utterance: "Penicillin gives me a rash." },
          "allergic reactions",
        ),
      ),
    ).toEqual([{ slot: "medical_history", status: "positive", value: "drug allergy" }]);
  });

  it("corrections: 'actually … Monday, not Sunday' sets the onset and answers the question asked", () => {
    const turn = readTurn(
      {
        history: ["What brings you in?", "It burns when I pee since Sunday."],
        question: "Any blood in your urine?",
        utterance: "Actually it started Monday, not Sunday.",
      },
      "corrections",
    );
    expect(turn.itemsAnswered).toBe(true);
    expect(entries(turn)).toEqual([{ slot: "symptom", status: "positive", value: "dysuria", onset: "monday" }]);
  });

  it("site answers: 'it's not in my leg, it's in my ankle' places the asked swelling at the ankle", () => {
    const turn = readTurn(
      { question: "Have you had any leg swelling?", utterance: "It's not in my leg, it's in my ankle." },
      "site answers",
    );
    expect(entries(turn)).toEqual([{ slot: "symptom", status: "positive", value: "swelling", location: ["ankle"] }]);
  });

  it("separate pains: a pain at a new site is its own entry, named by its site", () => {
    const turn = readTurn(
      {
        history: ["What brings you in?", "My shoulder hurts."],
        question: "Anything else?",
        utterance: "My knee hurts too.",
      },
      "separate pains",
    );
    expect(entries(turn)).toContainEqual({
      slot: "symptom",
      status: "positive",
      value: "knee pain",
      location: ["knee"],
    });
  });

  it("medication purpose: 'for my asthma' is what the medication named before is for", () => {
    const turn = readTurn(
      {
        history: ["Are you on any medications?", "I use an inhaler."],
        question: "What do you take it for?",
        utterance: "For my asthma.",
      },
      "medication purpose",
    );
    expect(entries(turn)).toContainEqual({
      slot: "medication",
      status: "positive",
      value: "bronchodilator agents",
      respone_to: "asthma",
    });
  });

  it("question asked back: 'What's that?' answers nothing and ends the turn as chit-chat", () => {
    const turn = readTurn(
      { question: "Have you ever had a pulmonary embolism?", utterance: "What's that?" },
      "question asked back",
    );
    expect(turn.frames).toEqual([{ intent: "chit-chat" }]);
  });

  it("periods and pregnancy: a late period and a possible pregnancy, the pregnancy settled for later passes", () => {
    const turn = readTurn(
      {
        question: "When was your last period, and is there any chance you could be pregnant?",
        utterance: "My period's a week late, I might be.",
      },
      "periods and pregnancy",
    );
    expect(entries(turn)).toEqual([
      { slot: "symptom", status: "positive", value: "delayed menstruation", onset: "a week ago" },
      { slot: "medical_history", status: "unknown", value: "pregnancy" },
    ]);
    expect([...turn.settled]).toEqual(["pregnancy"]);
  });

  it("named answers: denying one symptom of an either/or question denies the list", () => {
    const turn = readTurn(
      { question: "Any dizziness or fainting spells?", utterance: "No fainting spells." },
      "named answers",
    );
    expect(turn.itemsAnswered).toBe(true);
    expect(entries(turn)).toEqual([
      { slot: "symptom", status: "negative", value: "syncope" },
      { slot: "symptom", status: "negative", value: "dizziness" },
    ]);
  });

  it("named answers: what the patient is allergic to names the allergy (ontology/lexicon.json: allergens)", () => {
    const allergy = (utterance: string) =>
      entries(readTurn({ question: "Do you have any allergies?", utterance }, "named answers"));
    expect(allergy("Yes, to sulfa, I get a rash.")).toContainEqual({
      slot: "medical_history",
      status: "positive",
      value: "drug allergy",
    });
    expect(allergy("Yeah, peanuts.")).toContainEqual({
      slot: "medical_history",
      status: "positive",
      value: "food allergy",
    });
    expect(allergy("Just cats.")).toContainEqual({
      slot: "medical_history",
      status: "positive",
      value: "allergic rhinitis",
    });
  });

  it("asked attribute: a bare period answers 'when did it start?'", () => {
    const turn = readTurn(
      {
        history: ["What brings you in?", "A cough."],
        question: "When did the cough start?",
        utterance: "About two months ago.",
      },
      "asked attribute",
    );
    expect(turn.attributeAnswered).toBe(true);
    expect(entries(turn)).toEqual([
      { slot: "symptom", status: "positive", value: "coughing", onset: "two months ago" },
    ]);
  });

  it("yes/no answers: 'No.' denies every item asked", () => {
    expect(entries(readTurn({ question: "Any fevers or chills?", utterance: "No." }, "yes/no answers"))).toEqual([
      { slot: "symptom", status: "negative", value: "fever" },
      { slot: "symptom", status: "negative", value: "chills" },
    ]);
  });

  it("sick contacts: a coworker's cold is an exposure at work, not the patient's cold", () => {
    expect(
      entries(
        readTurn({ question: "Any sick contacts?", utterance: "My coworker had a cold last week." }, "sick contacts"),
      ),
    ).toEqual([{ slot: "exposure", status: "positive", value: "sick person", where: "at work" }]);
  });

  it("past episodes: a condition named to 'anything like this before?' is a past experience", () => {
    const turn = readTurn(
      { question: "Have you had anything like this before?", utterance: "I've had asthma all my life." },
      "past episodes",
    );
    expect(entries(turn)).toContainEqual({ slot: "medical_history", status: "positive", value: "past experience" });
  });

  it("volunteered attributes: triggers and colours go to the symptom they describe", () => {
    const turn = readTurn(
      {
        question: "What brings you in?",
        utterance: "I have a cough that gets worse at night and I bring up green phlegm.",
      },
      "volunteered attributes",
    );
    expect(entries(turn)).toEqual([
      { slot: "symptom", status: "positive", value: "coughing", aggravating_factor: ["night"] },
      { slot: "symptom", status: "positive", value: "colored/excess sputum", color: "green" },
    ]);
  });

  it("back-references: an onset in a sentence of its own dates the symptom 'it' refers to", () => {
    const turn = readTurn(
      { question: "What brings you in?", utterance: "I've got a sore throat and a cough. It started on Saturday." },
      "back-references",
    );
    expect(entries(turn)).toEqual([
      { slot: "symptom", status: "positive", value: "pharyngitis" },
      { slot: "symptom", status: "positive", value: "coughing", onset: "saturday" },
    ]);
  });

  it("repeats: a symptom already reported and only repeated adds nothing", () => {
    const turn = readTurn(
      { history: ["What brings you in?", "A cough."], question: "Any fever?", utterance: "I still have the cough." },
      "repeats",
    );
    expect(entries(turn)).not.toContainEqual(expect.objectContaining({ value: "coughing" }));
  });

  it("small talk: an answer to 'any questions for me?' that reports no symptom", () => {
    expect(
      readTurn({ question: "Do you have any questions for me?", utterance: "No, that's all, thank you." }, "small talk")
        .frames,
    ).toEqual([{ intent: "chit-chat" }]);
  });

  it("frames: a generic pain with a site becomes the specific concept", () => {
    expect(readTurn({ question: "Where is the pain?", utterance: "I have pain in my chest." }).frames).toEqual([
      { intent: "inform", slots: { positive_symptom: [{ value: "chest pain" }] } },
    ]);
  });
});
