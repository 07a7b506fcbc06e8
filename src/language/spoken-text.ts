import { writtenNumbers } from "./spoken-numbers.ts";

/**
 * Speech as a transcript gives it, made fit for a note: the statements a turn is made of, without the
 * hesitations, false starts, stutters and dictation commands of talk ("um , so on your , your heart
 * exam , i do appreciate a , uh , murmur" → "On your heart exam, I do appreciate a murmur."). Nothing
 * is reworded: a statement says what the speaker said, in their words.
 */

/**
 * A command to the dictation assistant that shows something on screen or closes the note (not a
 * statement to anyone). Example: "hey , dragon , show me the right knee x-ray ." and "hey dragon
 * finalize the note".
 */
const SCREEN_COMMAND =
  /\bhey\s*,?\s*dragon\s*[,.?]?\s*(?:(?:show|pull up|open|finalize|go to|bring up)\b[^.?!]*[.?!]?)?/g;

/**
 * Hesitations and fillers that carry nothing. Example: "um", "uh", "mm-hmm", "you know", "i mean",
 * "go ahead and", "basically".
 */
const FILLERS = /(?<![\w'-])(?:um+|uh+|er+|hmm+|mm-hmm|uh-huh|you know|i mean|go ahead and|basically)(?![\w'-])\s*,?/g;

/**
 * A word broken off ("r-", "mira-", "your-") and what follows it. Example: "here's the r- here's your
 * knee", "some mild diverticuli- diverticulosis", "a murmur- which we've heard".
 */
const BROKEN_OFF = /(?<![\w'])([a-z']+)-(?=\s|$)(\s+\S+)?/g;

/** The longest a broken-off word is when it is only a fragment ("r-", "sh-", "con-"). */
const FRAGMENT_LETTERS = 4;

/** How many letters two words begin with alike. */
function sharedStart(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length += 1;
  return length;
}

/**
 * The letters a word broken off and the next word must begin with alike for it to be said again
 * ("diverticuli- diverticulosis", "your- your").
 */
const SAID_AGAIN_LETTERS = 5;

/** A broken-off word: dropped when it is a fragment or said again next, else kept whole ("murmur-" → "murmur"). */
function mendBrokenOff(text: string): string {
  return text.replace(BROKEN_OFF, (_, word: string, next: string | undefined) => {
    const following = next ?? "";
    const nextWord = following.trim().replace(/[^a-z']/g, "");
    const saidAgain = sharedStart(word, nextWord) >= Math.min(word.length - 1, SAID_AGAIN_LETTERS);
    return word.length <= FRAGMENT_LETTERS || saidAgain ? following : `${word}${following}`;
  });
}

/** A word or two-word phrase said twice ("i , i", "the ... the", "on your on your"). Example: "i , i want". */
const SAID_TWICE = /\b(\w+(?:\s+\w+)?)(?:\s*(?:,|\.\.\.|…)\s*|\s+)\1\b/g;

/** Contractions the transcripts split ("do n't", "gon na"). Example: "i do n't" → "i don't". */
const SPLIT_CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(\w+) n't\b/g, "$1n't"],
  [/\bgon na\b/g, "going to"],
  [/\bwan na\b/g, "want to"],
  [/\bgot ta\b/g, "got to"],
  [/\blem me\b/g, "let me"],
];

/**
 * Words that open a statement without adding to it. Example: "okay , so , alright now the plan" →
 * "the plan".
 */
const OPENERS =
  /^(?:(?:okay|ok|alright|all right|so|well|now|and|but|yeah|yes|right|great|good|perfect|oh)\b\s*[,.]?\s*)+/;

/** A question tag at the end ("…, okay?", "…, right?"). Example: "we'll refer you to therapy , okay ?". */
const TAG_QUESTION = /(?:\s*,?\s*\b(?:okay|ok|alright|all right|right|yeah|sound good|does that sound good))+\s*\?\s*$/;

/**
 * Where an unpunctuated turn is cut into statements: before words that open one — a discourse marker,
 * an examination named, a new intention. Example: "…fine okay now were you…", "…sinuses on nasal
 * examination there is…", "…swab you i'm going to give you…".
 */
const UNPUNCTUATED_BREAK =
  /\s+(?=(?:okay|alright|all right|now|so|and then|um|uh|on (?:your |the |his |her )?[a-z]+ exam(?:ination)?|what about|how about|do you|does (?:it|that|this)|can you|is there|are you|have you|i'm going to|i want to|i'd like to|i do want|let's|we'll|we will|for your|i think|and i'll|i'll|if that's|if it's|if you)\b)/;

/** A sentence end in a punctuated turn (a space follows it). Example: "it's fine . on exam" → "it's fine .", "on exam". */
const SENTENCE_END = /(?<=[.?!])\s+/;

/**
 * Words a statement cut from an unpunctuated turn is left ending with. Example: "…for 10 days and" →
 * "…for 10 days".
 */
const DANGLING_END = /(?:[\s,]+(?:and|or|but|so|because|the|a|an|to|of|with|if|which|then|um|uh|like))+[.,]?$/;

/** Whether a turn is punctuated (the ACI transcripts of one source have no sentence marks at all). */
export function isPunctuated(text: string): boolean {
  return /[.?!]/.test(text);
}

/** A spoken statement cleaned for a note, or "" when nothing is left of it but talk. */
export function cleanStatement(spoken: string): string {
  let text = ` ${spoken.toLowerCase()} `.replace(SCREEN_COMMAND, " ");
  for (const [pattern, replacement] of SPLIT_CONTRACTIONS) text = text.replace(pattern, replacement);
  text = mendBrokenOff(text.replace(FILLERS, " ")).replace(/\.\.\.|…/g, " ");
  text = text.replace(/\s+/g, " ").replace(SAID_TWICE, "$1").replace(SAID_TWICE, "$1");
  text = text.replace(/\s+([,.?!;:])/g, "$1").replace(/([,.?!])(?:\s*[,.])+/g, "$1");
  text = text
    .trim()
    .replace(OPENERS, "")
    .replace(TAG_QUESTION, ".")
    .replace(/^[,.;:\s]+/, "");
  text = text.replace(DANGLING_END, "");
  if (text.replace(/[^a-z]/g, "").length < 4) return "";
  return writtenNumbers(text);
}

/** The statements of a turn, cleaned, in order: its sentences, or for an unpunctuated turn its spoken clauses. */
export function spokenStatements(turn: string): string[] {
  // Commands first: a command's words run over a sentence mark ("hey , dragon ? finalize the note .").
  const spoken = turn.toLowerCase().replace(SCREEN_COMMAND, " ");
  const pieces = isPunctuated(spoken) ? spoken.split(SENTENCE_END) : spoken.split(UNPUNCTUATED_BREAK);
  return pieces.map(cleanStatement).filter((statement) => statement.length > 0);
}

/** A statement written as a sentence: capitalised, "i" as "I", ended with a full stop unless it asks. */
export function asSentence(statement: string): string {
  const text = statement.replace(/\bi\b/g, "I").replace(/^\w/, (first) => first.toUpperCase());
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
