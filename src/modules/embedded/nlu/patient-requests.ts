import type { PatientRequest } from "../../../language/patient-requests.ts";
import { asksToRepeat } from "../../../language/repeat-requests.ts";
import { ICE_VOICE, iceAsked, onlyVoicesIce, voicesIceInWords } from "../../../language/ice-questions.ts";
import { CONCERN, PATIENT_REQUEST_RULES } from "./rules/patient-requests.ts";

/**
 * The patient's questions and wishes, read before the history: each sentence a rule of
 * `rules/patient-requests.ts` matches is a request (a question, a wish to stop, a prescription asked
 * for, the doctor's instructions to be changed) and is taken out of the text the passes read, so
 * that "is it cancer?" is never a past history of malignancy nor "prescribe opioids" a habit. The
 * answer to an ideas, concerns or expectations question is the patient's idea, concern or expectation
 * ("I think it might be my heart" is no heart disease on record), unless it tells nothing ("not really");
 * a sentence of it that is an account rather than a guess or a name is read as history as well.
 */

/** A patient turn split into what it asks of the doctor and the history it gives. */
export interface PatientRequestReading {
  readonly requests: PatientRequest[];
  /** The sentences that are no request, as said (empty when the turn only asks). */
  readonly history: string;
}

/** Where a sentence ends: after ".", "?" or "!" and a space. Example: "A cough. Is it cancer?" → two. */
const SENTENCE_BREAK = /(?<=[.?!])\s+/;

/** Words before a request that are no part of it. Example: "Yes, doctor, is it serious?" → "is it serious?", "hi, i just need…". */
const LEAD_IN =
  /^(?:(?:yes|yeah|yep|ok(?:ay)?|so|and|but|well|um+|uh+|hmm+|oh|hi|hello|hey|(?:good )?(?:morning|afternoon|evening)|doctor|doc|sorry|also|actually|right|please|one (?:more )?question|i have a question|quick question)\b[,:]?\s*)+/;

/** A question about the doctor's last words, not the patient's care. Example: "What's that?", "Pardon?". */
const ABOUT_DOCTORS_WORDS =
  /^(?:what(?:'s| is| was| does that mean)? (?:that|this)|what|huh|pardon|sorry|come again|say again)\W*$/;

/** Question words that only tie the doctor's question to its answer ("do I smoke? no."), kept out of the echo test. */
const FUNCTION_WORDS = new Set(
  "is are was were do does did have has had am i you your my me it this that any a an the to of in on for or and with there".split(
    " ",
  ),
);

/** A sentence lower-cased, its lead-in and curly apostrophes taken off. */
function normalise(sentence: string): string {
  return sentence.toLowerCase().replace(/[’‘]/g, "'").trim().replace(LEAD_IN, "");
}

/** The content words of a text. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => !FUNCTION_WORDS.has(word));
}

/**
 * Whether a question repeats the doctor's own ("do I smoke? no, never" to "do you smoke?"): every
 * content word of it is in the doctor's question. Such a sentence is the start of an answer.
 */
function echoesDoctor(sentence: string, doctorQuestion: string): boolean {
  const words = contentWords(sentence);
  if (words.length === 0) return doctorQuestion.trim().length > 0;
  const asked = new Set(contentWords(doctorQuestion));
  return words.every((word) => asked.has(word) || asked.has(`${word}s`) || asked.has(word.replace(/s$/, "")));
}

/** The requests one sentence makes: every kind a rule finds, a question only when it is nothing else. */
function sentenceRequests(said: string, doctorQuestion: string): PatientRequest[] {
  const sentence = normalise(said);
  // A concern is read within its sentence (`splitConcern`): the history around it stays.
  const rules = PATIENT_REQUEST_RULES.filter((rule) => rule.pattern !== CONCERN && rule.pattern.test(sentence));
  const kinds = new Set(rules.map((rule) => rule.kind));
  if (kinds.size > 1) kinds.delete("question");
  if (
    kinds.has("question") &&
    (asksToRepeat(said) || ABOUT_DOCTORS_WORDS.test(sentence) || echoesDoctor(sentence, doctorQuestion))
  )
    kinds.delete("question");
  return [...kinds].map((kind) => ({ kind, text: said.trim() }));
}

/** "And", "but", a comma before a concern: they join it to what came before, and go with it. */
const JOINING_END = /(?:,|\s)*\b(?:and|but|so|because|cause)?[\s,]*$/;

/** Where a concern ends within its sentence: a comma before a new statement. Example: "I'm scared it's serious, I've had…". */
const CONCERN_END = /,\s+(?=(?:i|i've|i'm|i have|my|it's been|and i)\b)/;

/**
 * A concern in a sentence ("I have a headache and I'm scared it's a brain tumour"): the history
 * around it, and the concern as the patient's question; undefined when none.
 */
function splitConcern(sentence: string): { readonly history: string; readonly concern: string } | undefined {
  const lower = sentence.toLowerCase().replace(/[’‘]/g, "'");
  const match = CONCERN.exec(lower);
  if (!match) return undefined;
  const end = CONCERN_END.exec(lower.slice(match.index));
  const stop = end ? match.index + end.index : sentence.length;
  const before = sentence.slice(0, match.index).replace(JOINING_END, "");
  const after = sentence.slice(stop).replace(/^[\s,]+/, "");
  const history = [before, after].filter((part) => part.trim().length > 0).join(". ");
  return { history, concern: sentence.slice(match.index, stop).trim() };
}

/**
 * An answer that tells nothing. Example: "no", "not really", "nothing in particular", "not sure", "no
 * idea", "I don't know".
 */
const TELLS_NOTHING =
  /^(?:(?:no|nope|nah|ok|okay|alright|fine|yes|yeah|thanks|thank you|hmm+|um+|not really|nothing(?: really| in particular| much| else| specific)?|none|not sure|no idea|no clue|not a clue|dunno|i (?:don't|do not) know|don't know|i'm not sure|i'm afraid|i (?:couldn't|could not|can't|cannot) (?:tell you|say|really say)|(?:it's )?hard to say|not especially|not particularly|i haven't thought about it|sorry|really|honestly|to be honest|doc|doctor|dear|mate|love|i guess|i suppose)[\s,.!?]*)+$/;

/**
 * A sentence that opens by denying something. Example: "no blood that I've seen", "not had a
 * temperature"; not an unsure opening ("no idea, maybe stress", "not sure, could be my back").
 */
const DENIAL_OPENING =
  /^(?!no idea|no clue|not sure|not a clue|not really sure|don't know)(?:no|not|none|nothing|never|haven't|hasn't|didn't|don't)\b/;

/** A repeat of the patient's own medicine. Example: "a repeat of my blue inhaler", "my repeat prescription". */
const REPEAT_OF_OWN = /\b(?:repeat (?:of|for) (?:my|his|her)|my repeat)\b/;

/** Splits a patient turn into its requests and the history it gives; `doctorQuestion` is the doctor's last turn. */
export function readPatientRequests(utterance: string, doctorQuestion = ""): PatientRequestReading {
  const requests: PatientRequest[] = [];
  const history: string[] = [];
  // The answer to "what do you think is causing it?", "anything worrying you?", "what were you hoping for?".
  const ice = iceAsked(doctorQuestion);
  // The answer is kept whole, one voice ("honestly? I think it's stress" is one idea, not two).
  const voiced: string[] = [];
  for (const sentence of utterance.split(SENTENCE_BREAK)) {
    const found = sentenceRequests(sentence, doctorQuestion);
    if (ice && found.length === 0 && !TELLS_NOTHING.test(normalise(sentence))) {
      // "No blood that I've seen" to "what do you think is causing it?" is history, not an idea.
      const denies = DENIAL_OPENING.test(normalise(sentence)) && !voicesIceInWords(sentence);
      if (sentence.trim() !== "" && !denies) voiced.push(sentence.trim());
      if (denies || !onlyVoicesIce(sentence)) history.push(sentence);
      continue;
    }
    const concern = found.length > 0 ? undefined : splitConcern(sentence);
    if (concern) {
      if (concern.history) history.push(concern.history);
      requests.push({ kind: "question", text: concern.concern });
    } else if (found.length > 0) {
      requests.push(...found);
      // "I just need a repeat of my blue inhaler": the medicine is one the patient takes.
      if (found.some((request) => request.kind === "prescription") && REPEAT_OF_OWN.test(normalise(sentence)))
        history.push(sentence);
    } else history.push(sentence);
  }
  if (ice && voiced.length > 0) requests.unshift({ kind: ICE_VOICE[ice], text: voiced.join(" ") });
  return { requests, history: history.join(" ").trim() };
}
