import { asSentence, spokenStatements } from "./spoken-text.ts";
import type { VisitTurn } from "./visit-transcript.ts";

/**
 * The patient's own account of their illness in a recorded visit, as a note reports it: what they
 * said while the doctor took the history (before the examination), each statement in the third person
 * ("i've been having some pain in my knee" → "He has been having some pain in his knee."). Nothing is
 * reworded but the person: the note says what the patient said, and attributes it to them. Short
 * answers ("yes", "no, not really") are left to the tracked state, which reads them in the context of
 * the question.
 */

/** How the note refers to the patient: he, she, or they when the visit does not say. */
export type Pronouns = "male" | "female" | null;

/** The fewest words a statement of the account has ("yeah, it hurts" is an answer, not an account). */
const ACCOUNT_WORDS = 6;

/** The most statements the account keeps, in order (a long visit's history is summarised, not transcribed). */
const ACCOUNT_STATEMENTS = 6;

/**
 * Talk, not history: greetings, thanks, agreement. Example: "i'm doing well, thank you for asking",
 * "yeah, that sounds good to me".
 */
const TALK =
  /^(?:(?:hi|hello|hey|good (?:morning|afternoon))\b|(?:i'm |i am )?(?:doing )?(?:good|fine|well|okay|alright|great)\b[^.]*\b(?:thank|thanks|you)\b|thank|thanks|(?:yeah|yes|okay|sure)?[, ]*(?:that )?sounds? (?:good|great|fine)|nice to meet)/;

/** Words a statement of the account must have: it speaks of the patient. Example: "i", "my", "me". */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|my|me|myself)\b/;

/** The first person in the third, by pronouns: subject, object, possessive, reflexive. */
const PERSON: Readonly<Record<"male" | "female" | "they", Readonly<Record<string, string>>>> = {
  male: { i: "he", me: "him", my: "his", mine: "his", myself: "himself" },
  female: { i: "she", me: "her", my: "her", mine: "hers", myself: "herself" },
  they: { i: "they", me: "them", my: "their", mine: "theirs", myself: "themselves" },
};

/** Contractions of "i" written out ("i'm" → "i am"), so their verb can agree with the third person. */
const I_CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bi'm\b/g, "i am"],
  [/\bi've\b/g, "i have"],
  [/\bi'd\b/g, "i would"],
  [/\bi'll\b/g, "i will"],
];

/**
 * Verbs after "i" that change for "he"/"she" ("i have" → "he has"); others take an "s" when they are
 * one of these common present-tense verbs. Example: "i am" → "he is", "i don't" → "he doesn't".
 */
const SINGULAR_VERBS: Readonly<Record<string, string>> = {
  am: "is",
  have: "has",
  do: "does",
  "don't": "doesn't",
  go: "goes",
  was: "was",
};

/** Present-tense verbs that take an "s" after "he"/"she". Example: "i feel" → "he feels". */
const TAKES_S =
  /^(?:feel|think|get|take|want|need|know|notice|use|walk|work|play|run|eat|drink|sleep|wake|hurt|try|see|say|like|live|smoke|wear|check|keep|stay|start|tend|remember|guess|believe|hope|mean|seem)$/;

/** "i" and the verb after it, in the third person. */
function thirdPersonVerb(verb: string, pronouns: "male" | "female" | "they"): string {
  if (pronouns === "they") return verb === "am" ? "are" : verb === "was" ? "were" : verb;
  if (SINGULAR_VERBS[verb]) return SINGULAR_VERBS[verb];
  if (TAKES_S.test(verb)) return verb === "try" ? "tries" : `${verb}s`;
  return verb;
}

/** A statement of the patient's in the third person. Example: "i think my knee is worse" → "he thinks his knee is worse". */
export function inThirdPerson(statement: string, pronouns: Pronouns): string {
  const person = pronouns ?? "they";
  const words = PERSON[person];
  const expanded = I_CONTRACTIONS.reduce((text, [pattern, written]) => text.replace(pattern, written), statement);
  return expanded
    .replace(
      /\bi\s+((?:just|really|also|still|actually|usually|always|never|only|kinda|definitely|sometimes|do not)\s+)?([a-z']+)/g,
      (_, adverb: string | undefined, verb: string) =>
        adverb === "do not "
          ? `i ${thirdPersonVerb("do", person)} not ${verb}`
          : `i ${adverb ?? ""}${thirdPersonVerb(verb, person)}`,
    )
    .replace(/\b(?:i|me|my|mine|myself)\b/g, (word) => words[word]!);
}

/** Whether a cleaned statement belongs in the account: long enough, about the patient, not talk and not a question. */
function isAccount(statement: string): boolean {
  return (
    statement.split(/\s+/).length >= ACCOUNT_WORDS &&
    FIRST_PERSON.test(statement) &&
    !TALK.test(statement) &&
    !statement.endsWith("?")
  );
}

/**
 * The patient's account: their statements in the turns before `until` (the examination's first turn),
 * in order, in the third person, at most {@link ACCOUNT_STATEMENTS}.
 */
export function patientAccount(turns: readonly VisitTurn[], until: number, pronouns: Pronouns): string[] {
  return turns
    .slice(0, until)
    .filter((turn) => turn.speaker === "patient" && !turn.guest)
    .flatMap((turn) => spokenStatements(turn.text.toLowerCase()))
    .filter(isAccount)
    .slice(0, ACCOUNT_STATEMENTS)
    .map((statement) => asSentence(inThirdPerson(statement, pronouns)));
}
