import { describe, expect, it } from "vitest";
import type { ConsultCase } from "../../../src/simulator/consultation/consult-case.ts";
import {
  loadAgentClinicConsultations,
  loadMediqConsultations,
} from "../../../src/simulator/consultation/consult-dataset.ts";
import { embeddedAnswer, NOT_SURE, NOTHING_ASKED } from "../../../src/simulator/consultation/embedded-patient.ts";

/**
 * The embedded patient never says a fact it was not asked about, over every bundled case (MediQ's
 * 140 iCraft-MD and 1,000 development cases, AgentClinic's 150). What a question is about is written
 * here, independently of the patient's rules: each probe's facts must match its own pattern.
 */

const mediq = loadMediqConsultations();
const cases: ConsultCase[] = [
  ...mediq.splits.icraft!,
  ...mediq.splits.dev!,
  ...loadAgentClinicConsultations().splits.medqa!,
];

/** Questions, and what any fact answering them must mention. */
const PROBES: ReadonlyArray<{ readonly question: string; readonly about: (fact: string) => boolean }> = [
  { question: "Do you smoke?", about: (fact) => /smok|cigar|tobacco|\bpacks?\b|vap|nicotine/i.test(fact) },
  { question: "Do you drink alcohol?", about: (fact) => /alcohol|drink|beer|wine|liquor|ethanol|spirits/i.test(fact) },
  {
    question: "How old are you?",
    about: (fact) =>
      /\d+[- ](?:year|month|week|day)s?[- ]old|\baged?\b|years? of age|newborn|neonat|infant/i.test(fact),
  },
  { question: "Have you had a fever?", about: (fact) => /fever|febrile|pyrexi|temperature/i.test(fact) },
  { question: "Have you had any headaches?", about: (fact) => /head|migraine/i.test(fact) },
  { question: "Have you been coughing?", about: (fact) => /cough/i.test(fact) },
  { question: "Do you have any allergies?", about: (fact) => /allerg/i.test(fact) },
  {
    question: "Does anything run in your family?",
    about: (fact) => /family|mother|father|brother|sister|sibling|parent|grand|aunt|uncle|cousin|relative/i.test(fact),
  },
  {
    question: "What do you do for work?",
    about: (fact) => /\bwork|job|occupation|employ|retired|student|farmer|teacher|nurse/i.test(fact),
  },
  {
    question: "Are you sexually active?",
    about: (fact) => /sex|partner|intercourse|condom|unprotected|monogam/i.test(fact),
  },
  { question: "Is the rash itchy?", about: (fact) => /rash|eruption/i.test(fact) && /itch|prurit/i.test(fact) },
  {
    question: "Do you have any chest pain?",
    about: (fact) => /chest|angina/i.test(fact) && /pain|discomfort|angina/i.test(fact),
  },
  { question: "Have you had any vomiting?", about: (fact) => /vomit|throw(?:ing)? up|threw up|emesis/i.test(fact) },
];

/** Questions about what a case may not mention at all, and the words that would mention it. */
const ABSENT: ReadonlyArray<{ readonly question: string; readonly words: RegExp }> = [
  { question: "Do you keep birds at home?", words: /bird|parrot|pigeon|aviar|psittac/i },
  { question: "Have you ever been to Antarctica?", words: /antarctic/i },
  { question: "Do you play the piano?", words: /piano|music/i },
  { question: "Have you ever been bitten by a snake?", words: /snake|bit(?:e|ten)|venom/i },
];

describe("the embedded consultation patient (over all bundled cases)", () => {
  it("says only facts that answer the question asked, in the case's order, and nothing else", () => {
    let answered = 0;
    for (const patientCase of cases) {
      for (const probe of PROBES) {
        const reply = embeddedAnswer(patientCase, probe.question);
        const facts = patientCase.facts.filter((fact) => reply.revealed.includes(fact.id));
        for (const fact of facts)
          expect(probe.about(fact.text), `${patientCase.id}: "${probe.question}" revealed "${fact.text}"`).toBe(true);
        // The answer is exactly the revealed facts, in the patient's voice, in the case's order.
        expect(reply.text).toBe(facts.length > 0 ? facts.map((fact) => fact.spoken).join(" ") : NOT_SURE);
        expect(reply.revealed).toEqual(facts.map((fact) => fact.id));
        if (facts.length > 0) answered += 1;
      }
    }
    // The probes are answered, often: a patient that says nothing would pass the checks above.
    expect(answered).toBeGreaterThan(1000);
  });

  it("answers a question about what its case never mentions with 'I'm not sure', revealing nothing", () => {
    let asked = 0;
    for (const patientCase of cases) {
      const story = patientCase.facts.map((fact) => fact.text).join(" ");
      for (const absent of ABSENT) {
        if (absent.words.test(story)) continue;
        asked += 1;
        expect(embeddedAnswer(patientCase, absent.question)).toEqual({ text: NOT_SURE, revealed: [] });
      }
    }
    expect(asked).toBeGreaterThan(cases.length * 3);
  });

  it("says 'Okay.' to a turn that asks nothing, however much it names", () => {
    for (const patientCase of cases.slice(0, 200)) {
      const everything = `${patientCase.facts.map((fact) => fact.text).join(". ")}.`;
      expect(embeddedAnswer(patientCase, everything)).toEqual({ text: NOTHING_ASKED, revealed: [] });
    }
  });

  it("may reveal several facts in one answer, each asked about", () => {
    const first = mediq.splits.icraft![0]!;
    const reply = embeddedAnswer(first, "Have you had any fevers or chills?");
    expect(reply.revealed).toEqual(["5", "6"]);
    expect(reply.text).toBe("I haven't had a fever. I haven't had chills.");
  });
});
