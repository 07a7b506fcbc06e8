import type { MediqCase } from "../../data/mediq.ts";
import { ageInYears, isPain, sexOf, type CaseFact, type ConsultCase } from "./consult-case.ts";
import { factMatcher, type FactMatcher } from "./fact-matcher.ts";
import { spokenFact, voiceFor, type PatientVoice } from "./patient-voice.ts";

/**
 * MediQ's cases as consultation cases, as MediQ runs them: the patient's initial information (the
 * case's `initial_info`, else its first context sentence) is what the expert knows at the start, and
 * the atomic `facts` are what the patient may reveal; the consultation ends with one option letter,
 * scored against `answer_idx`. A case without facts (three development cases) speaks from its context
 * sentences instead.
 */

/** A fact's number as MediQ writes it, e.g. `12. ` in `12. The man denied having chills.` */
const FACT_NUMBER = /^\s*(\d+)\.\s+/;

/** Sentence ends inside a paragraph: a full stop, `?` or `!` followed by a space and a capital. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9])/;

/** The context as MediQ reads it: its sentences, or a string split at ". " as MediQ's benchmark does. */
export function contextSentences(entry: MediqCase): string[] {
  if (Array.isArray(entry.context)) return entry.context.filter((sentence) => sentence.trim() !== "");
  return entry.context.split(". ").filter((sentence) => sentence.trim() !== "");
}

/** The case's facts, numbered as MediQ numbers them (or the context sentences, 1 to n, when it has none). */
function factsOf(entry: MediqCase, voice: PatientVoice): CaseFact[] {
  const texts = entry.facts.length > 0 ? entry.facts : contextSentences(entry);
  return texts.map((raw, index) => {
    const number = FACT_NUMBER.exec(raw);
    const text = raw.replace(FACT_NUMBER, "").trim();
    return { id: number ? number[1]! : String(index + 1), text, spoken: spokenFact(text, voice) };
  });
}

/** A text said sentence by sentence in the patient's voice. */
export function spokenText(text: string, voice: PatientVoice): string {
  return text
    .split(SENTENCE_END)
    .map((sentence) => spokenFact(sentence, voice))
    .filter((sentence) => sentence !== "")
    .join(" ");
}

/**
 * The facts an opening statement already gives: those whose words (stop words aside) it says, all but a
 * quarter at most, so that "The symptoms started 10 days ago." is in "… that started 10 days ago".
 */
export function factsInOpening(opening: string, facts: readonly CaseFact[], matcher: FactMatcher): string[] {
  const said = new Set(matcher.analyse(opening).words);
  return facts
    .filter((fact) => {
      const words = matcher.analyse(fact.text).words;
      return words.length > 0 && words.filter((word) => said.has(word)).length / words.length >= 0.75;
    })
    .map((fact) => fact.id);
}

/** A MediQ case as a consultation case. */
export function mediqConsultCase(entry: MediqCase, matcher: FactMatcher = factMatcher()): ConsultCase {
  const age = ageInYears(entry.patient?.age);
  const sex = sexOf(entry.patient?.gender);
  const voice = voiceFor(age, sex);
  const initial = (entry.initial_info ?? contextSentences(entry)[0] ?? "").trim();
  const listed = factsOf(entry, voice);
  const given = new Set(factsInOpening(initial, listed, matcher));
  // The opening's facts are the presenting complaint: what "what brings you in?" asks for.
  const facts = listed.map((fact) => (given.has(fact.id) ? { ...fact, section: "complaint" as const } : fact));
  return {
    id: entry.id,
    source: "mediq",
    briefing: null,
    opening: initial === "" ? null : { text: spokenText(initial, voice), facts: [...given] },
    facts,
    measurements: [],
    ending: { kind: "choice", question: entry.question, options: entry.options, answer: entry.answer_idx },
    profile: {
      complaint: initial,
      pain: isPain(initial),
      ...(age !== undefined ? { age } : {}),
      ...(sex ? { sex } : {}),
    },
    voice,
  };
}
