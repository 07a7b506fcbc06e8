import type { DoctorAction } from "../../../cmas/schemas.ts";
import { loadOntologyFile } from "../../../ontology/ontology-files.ts";
import type { NlgInput } from "../../../language/module-interfaces.ts";
import { askedMeaningOf, clarificationMove } from "../../../language/repeat-requests.ts";
import { actionShape } from "../../../language/action-signature.ts";

/**
 * How the live doctor words its reply to a patient who asked to hear the question again or what it
 * means (`src/language/repeat-requests.ts`): the first time, the same question with its terms explained in
 * everyday words (`plain` of `ontology/lay-terms.json`: "By sputum, I mean the stuff you cough up from
 * your chest."), or the word the patient asked about explained and used in the question; the second
 * time, "That's alright, let's move on." before the next question.
 */

const layFile = loadOntologyFile("lay-terms.json");

/** A canonical value's term in the question, and what it means in everyday words. */
interface Explained {
  readonly term: string;
  readonly means: string;
}

const wholeWords = (words: string): RegExp => new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");

/** The values asked whose lay terms the question says and has a plain explanation for, each once. */
function explainedValues(questions: readonly DoctorAction[], question: string): Map<string, Explained> {
  const explained = new Map<string, Explained>();
  for (const value of questions.flatMap((action) => actionShape(action).values)) {
    const plain = layFile.plain[value];
    const term = layFile.terms[value] ?? value;
    if (plain && wholeWords(term).test(question)) explained.set(value, { term, means: plain.means });
  }
  return explained;
}

/** The canonical value a patient's word names (one of its `words` or its lay term), or undefined. */
function valueOfWord(word: string): string | undefined {
  return Object.entries(layFile.plain).find(
    ([value, plain]) => plain.words.includes(word) || layFile.terms[value] === word,
  )?.[0];
}

/** The question without its acknowledgement ("OK, and have you…" → "Have you…"). */
function bareQuestion(text: string): string {
  const question = text.replace(/^(?:OK|And)[,.]? (?:and )?/i, "");
  return question.charAt(0).toUpperCase() + question.slice(1);
}

/**
 * The question asked again: "By <word>, I mean …" for the word asked about (said in the question in
 * the patient's own word), else every term of the question that has a plain explanation.
 */
function askAgain(question: string, questions: readonly DoctorAction[], said: string): string {
  const explained = explainedValues(questions, question);
  const word = askedMeaningOf(said);
  const asked = word === undefined ? undefined : valueOfWord(word);
  if (word !== undefined && asked !== undefined) {
    const means = layFile.plain[asked]!.means;
    const term = explained.get(asked)?.term;
    const reworded = term === undefined ? question : question.replace(wholeWords(term), word);
    return `By ${word}, I mean ${means}. ${reworded}`;
  }
  if (explained.size === 0) return `Of course, let me ask again. ${question}`;
  const meanings = [...explained.values()].map(({ term, means }) => `By ${term}, I mean ${means}.`);
  return `Sorry, let me put it more simply. ${meanings.join(" ")} ${question}`;
}

/** The doctor's lines a request may be about that no action words: the closing question, and the opening asked again. */
export interface FixedLines {
  readonly closing: string;
  readonly openingAgain: string;
}

/**
 * The reply to a live patient's request to repeat or explain, or undefined when the patient asked
 * nothing of the kind (or the doctor neither asks again nor closes). `realise` words the questions.
 * A lone chit-chat is the opening asked again (when the request was about the opening line) or the
 * closing's "any questions for me?", asked again or moved on to.
 */
export function clarifiedReply(
  input: NlgInput,
  realise: (actions: readonly DoctorAction[]) => string,
  lines: FixedLines,
): string | undefined {
  const move = clarificationMove(input.history);
  if (move === undefined) return undefined;
  const questions = input.actions.filter((action) => action.action === "inquire");
  if (questions.length === 0) {
    if (input.actions.length === 0 || input.actions.some((action) => action.action !== "chit-chat")) return undefined;
    if (move === "repeat" && input.history.length === 2) return lines.openingAgain;
    return `${move === "repeat" ? "Of course." : "That's alright."} ${lines.closing}`;
  }
  const question = bareQuestion(realise(questions));
  if (move === "move-on") return `That's alright, let's move on. ${question}`;
  return askAgain(question, questions, input.history.at(-1)!.text);
}
