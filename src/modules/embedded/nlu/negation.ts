import type { ReadingStatusName } from "../../../cmas/cmas-names.ts";
import { ASKS_TO_REPEAT_OR_EXPLAIN } from "../../../language/repeat-request-pattern.ts";
import { cuePhrases } from "./rules/negation-cues.ts";
import type { Token } from "./text.ts";
import { PEOPLE, wordsPattern } from "./word-lists.ts";

/**
 * Polarity of concept mentions (NegEx-style cues with clause scope) and of short answers ("No.",
 * "Yeah.", "Not that I know of.", "Maybe.").
 *
 * Scope: a cue governs the rest of its clause. Clauses end at sentence punctuation, at contrastive or
 * exceptive words ("but", "just", "other than"), and at a comma or "and" that starts a new subject
 * ("No, I …", "… and I have …"). An answer particle standing alone ("No, just asthma") has no scope:
 * it answers the question, it does not deny what follows.
 */

/** How a mention is read: present, absent or uncertain (the ontology's reading statuses). */
export type Status = ReadingStatusName;
/** How an utterance answers a yes/no question; `normal` is "it's been fine" (absence, said positively). */
export type AnswerPolarity = "yes" | "no" | "unknown" | "normal";

/** Single-word cues of a kind (`rules/negation-cues.ts`). */
const singleWords = (kind: Parameters<typeof cuePhrases>[0]): Set<string> =>
  new Set(
    cuePhrases(kind)
      .filter((phrase) => phrase.length === 1)
      .map((phrase) => phrase[0]!),
  );

const NEGATION_CUES = singleWords("negation");
const UNCERTAINTY_CUES = singleWords("uncertainty");
/** Multi-word uncertainty cues, as token texts. */
const UNCERTAINTY_PHRASES = cuePhrases("uncertainty").filter((phrase) => phrase.length > 1);
/** Phrases that deny though they start as an uncertainty ("I can't say I've had…"). */
const HEDGED_DENIALS = cuePhrases("hedged-denial");
/** Cue-like phrases that deny nothing in their clause ("not only", "can't stop", "no help"). */
const PSEUDO_NEGATIONS = cuePhrases("pseudo-negation");
/** Denials right after a mention ("fever? none", "chest pain, not at all"). */
const AFTER_MENTION_DENIALS = cuePhrases("after-mention");

/** Words that start a new clause (and end any negation scope). */
const CLAUSE_BREAKERS = new Set([
  "but",
  "though",
  "although",
  "except",
  "however",
  "whereas",
  "just",
  "only",
  "besides",
  "apart",
  "although",
  "unless",
  "because",
  "cause",
  "'cause",
  "since",
  "until",
  "which",
]);
const SUBJECTS = new Set([
  "i",
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "it",
  "it's",
  "my",
  "we",
  "we've",
  "she",
  "he",
  "they",
  "they've",
  "that",
  "that's",
  "there",
  "there's",
  "this",
  "you",
  "me",
]);
const ANSWER_PARTICLES = new Set(["no", "nope", "nah", "yes", "yeah", "yep", "yup", "ya", "okay", "ok"]);

/** Words that, right after a comma, contrast with what came before it ("felt sick, not vomited"). */
const CONTRASTS_AFTER_COMMA = new Set(["not", "more", "rather", "mostly", "mainly", "instead", "although", "though"]);

/** Words after ", not" that deny what came before it ("chest pain, not at all", "fever, not really"). */
const DENIAL_AFTER_NOT = new Set([
  "at",
  "really",
  "much",
  "so",
  "that",
  "too",
  "very",
  "anymore",
  "any",
  "lately",
  "recently",
]);

/**
 * Verbs that open a second statement about the same person, the subject left unsaid: a denial before
 * "and" does not reach past them. Example: "shes not weeing much and seems a bit muddled", "no fever
 * and looks pale".
 */
const ELIDED_SUBJECT_VERBS = new Set([
  "seems",
  "seemed",
  "looks",
  "looked",
  "keeps",
  "kept",
  "gets",
  "got",
  "feels",
  "felt",
  "is",
  "was",
  "started",
]);

/** Whether the token after a comma starts a contrast: "felt sick, not vomited" (not "chest pain, not at all"). */
function isContrastAfterComma(tokens: readonly Token[], index: number): boolean {
  const word = tokens[index]!.text;
  if (word !== "not") return CONTRASTS_AFTER_COMMA.has(word);
  const after = tokens[index + 1];
  return after !== undefined && after.kind === "word" && !DENIAL_AFTER_NOT.has(after.text);
}

/** A denial answering the question, then a comma. Example: "nothing really, bit of high blood pressure". */
const LEADING_DENIAL =
  /^(?:no|nothing|none|not|nah|nope)(?: (?:really|much|major|serious|else|that i know of|to speak of))*$/;

/** Whether the comma at `comma` closes a denial that opens the utterance or a sentence ("nothing really,"). */
function isLeadingDenial(tokens: readonly Token[], comma: number): boolean {
  let start = comma;
  while (start > 0 && tokens[start - 1]!.kind !== "punct") start -= 1;
  if (start === comma || comma - start > 5) return false;
  return LEADING_DENIAL.test(
    tokens
      .slice(start, comma)
      .map((token) => token.text)
      .join(" "),
  );
}

/** Clause ids per token. */
export function clauseIds(tokens: readonly Token[]): number[] {
  const ids: number[] = [];
  let clause = 0;
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (token.kind === "punct") {
      ids.push(clause);
      if (token.text !== ",") clause += 1;
      else {
        const next = tokens[index + 1];
        if (next && (SUBJECTS.has(next.text) || CLAUSE_BREAKERS.has(next.text) || ANSWER_PARTICLES.has(next.text)))
          clause += 1;
        // "Felt sick, not vomited", "not a fever, more chills": a contrast after the comma is its own clause.
        else if (next && isContrastAfterComma(tokens, index + 1)) clause += 1;
        // "Nothing really, bit of high blood pressure": the denial answered the question; what follows is said.
        else if (isLeadingDenial(tokens, index)) clause += 1;
        // "No fever, and a bad cough": ", and" before a determiner starts a new statement, not a list item.
        else if (
          next?.text === "and" &&
          /^(?:a|an|some|the|my|this|that|lots|plenty)$/.test(tokens[index + 2]?.text ?? "")
        )
          clause += 1;
        // "No," / "Yeah," as a standalone answer: what follows is its own clause.
        else if (
          previous &&
          ANSWER_PARTICLES.has(previous.text) &&
          (index === 1 || tokens[index - 2]?.kind === "punct")
        )
          clause += 1;
      }
      return;
    }
    if (CLAUSE_BREAKERS.has(token.text) && index > 0) clause += 1;
    else if (
      (token.text === "and" || token.text === "or" || token.text === "so") &&
      tokens[index + 1] &&
      (SUBJECTS.has(tokens[index + 1]!.text) ||
        (token.text === "and" && ELIDED_SUBJECT_VERBS.has(tokens[index + 1]!.text)))
    )
      clause += 1;
    else if (token.text === "other" && tokens[index + 1]?.text === "than") clause += 1;
    ids.push(clause);
  });
  return ids;
}

function phraseAt(tokens: readonly Token[], index: number, phrase: readonly string[]): boolean {
  return phrase.every((word, offset) => tokens[index + offset]?.text === word);
}

/** Whether the token at `index` starts a pseudo-negation ("not only") or an uncertainty phrase. */
function coveredBy(tokens: readonly Token[], index: number, phrases: readonly (readonly string[])[]): number {
  for (const phrase of phrases) {
    for (let offset = 0; offset < phrase.length; offset += 1) {
      if (phraseAt(tokens, index - offset, phrase)) return phrase.length;
    }
  }
  return 0;
}

/** An answer particle with no scope: "No," or "No." at the start of a clause, or a bare "No". */
function isStandaloneParticle(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]!;
  if (!ANSWER_PARTICLES.has(token.text) && token.text !== "not") return false;
  const next = tokens[index + 1];
  if (!next || next.kind === "punct" || ANSWER_PARTICLES.has(next.text)) return true;
  // "no she takes warfarin", "no I take it daily": the answer, then a statement of its own, typed without a comma.
  const opensClause = index === 0 || tokens[index - 1]!.kind === "punct";
  return opensClause && token.text !== "not" && STATEMENT_SUBJECTS.has(next.text);
}

/** Subjects that open a statement of its own after an answer particle. Example: "no she takes warfarin". */
const STATEMENT_SUBJECTS: ReadonlySet<string> = new Set([
  "i",
  "i'm",
  "i've",
  "she",
  "she's",
  "he",
  "he's",
  "they",
  "they're",
  "we",
  "we're",
  "my",
  "his",
  "her",
  "their",
]);

/**
 * A number or an amount after a hedge: the hedge makes the amount approximate, not the finding uncertain.
 * Example: "maybe 4 pints on a saturday", "perhaps two or three a day", "maybe a couple of times".
 */
const AMOUNT_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|half";
const AMOUNT_AFTER = new RegExp(`^(?:\\d+(?:\\.\\d+)?|${AMOUNT_WORDS}|a (?:couple|few|dozen))$`);

/** A hedge word not followed by an amount. Example: "maybe", "it might be" — not "maybe 4 pints". */
const HEDGE_NOT_OF_AN_AMOUNT = new RegExp(
  `\\b(?:maybe|possibly|perhaps|might)\\b(?!\\s+(?:\\d|(?:${AMOUNT_WORDS})\\b|a (?:couple|few|dozen)\\b))`,
);

/** Whether the uncertainty cue at `index` hedges an amount that follows it ("maybe 4 pints"). */
function hedgesAnAmount(tokens: readonly Token[], index: number): boolean {
  const next = tokens[index + 1]?.text ?? "";
  return AMOUNT_AFTER.test(next) || AMOUNT_AFTER.test(`${next} ${tokens[index + 2]?.text ?? ""}`);
}

/** How many tokens before a mention a cue may stand (in its clause). */
const CUE_SCOPE_BEFORE = 8;
/** How many tokens after a mention an after-mention denial may stand. */
const CUE_SCOPE_AFTER = 4;

/** The token-level view negation scope needs. */
export interface ScopeContext {
  readonly tokens: readonly Token[];
  readonly clauses: readonly number[];
  /** Tokens that belong to a concept phrase: cues inside one ("can't smell") are part of the concept. */
  readonly inConcept: readonly boolean[];
}

/**
 * The status of a mention at tokens `[start, end)`: the nearest cue before it in its clause (no more
 * than 8 tokens back) decides; "X … at all"/"X? none" style cues after it count too.
 */
export function mentionStatus(context: ScopeContext, start: number, end: number): Status {
  const { tokens, clauses, inConcept } = context;
  const clause = clauses[start];
  for (let index = start - 1; index >= 0 && index >= start - CUE_SCOPE_BEFORE; index -= 1) {
    if (clauses[index] !== clause) break;
    const token = tokens[index]!;
    if (inConcept[index]) continue;
    if (coveredBy(tokens, index, HEDGED_DENIALS) > 0) return "negative";
    if (coveredBy(tokens, index, UNCERTAINTY_PHRASES) > 0) return "unknown";
    if (UNCERTAINTY_CUES.has(token.text) && !hedgesAnAmount(tokens, index)) return "unknown";
    if (NEGATION_CUES.has(token.text)) {
      if (coveredBy(tokens, index, PSEUDO_NEGATIONS) > 0) continue;
      if (isStandaloneParticle(tokens, index)) break;
      return "negative";
    }
  }
  // Post-mention denials in the same clause: "fever? none", "chest pain, not at all".
  for (let index = end; index < tokens.length && index < end + CUE_SCOPE_AFTER; index += 1) {
    if (clauses[index] !== clause) break;
    if (inConcept[index]) break;
    if (AFTER_MENTION_DENIALS.some((phrase) => phraseAt(tokens, index, phrase))) return "negative";
  }
  return "positive";
}

const YES = new Set([
  "yes",
  "yeah",
  "yep",
  "yup",
  "ya",
  "yah",
  "yea",
  "sure",
  "definitely",
  "absolutely",
  "correct",
  "right",
  "indeed",
  "uh-huh",
  "mhm",
  "exactly",
  "sometimes",
  "occasionally",
  "certainly",
  "true",
]);
const NO = new Set(["no", "nope", "nah", "never", "none", "nothing", "not", "nobody", "negative"]);
const UNSURE = new Set(["maybe", "possibly", "perhaps", "might", "unsure", "dunno"]);
/** Leading words that carry no answer ("oh, well, so, okay, no…"). */
const LEAD_IN = new Set([
  "oh",
  "well",
  "so",
  "okay",
  "ok",
  "alright",
  "and",
  "um",
  "uh",
  "like",
  "honestly",
  "actually",
  "hmm",
]);
const NORMAL_STATE = new Set([
  "fine",
  "well",
  "normal",
  "good",
  "okay",
  "ok",
  "healthy",
  "great",
  "alright",
  "unchanged",
  "clear",
  "perfect",
]);
/** How many words before a normal-state word its copula may stand ("hearing has been OK"). */
const COPULA_WINDOW = 3;
const COPULAS = new Set([
  "been",
  "is",
  "are",
  "was",
  "were",
  "it's",
  "that's",
  "everything's",
  "everybody's",
  "everyone's",
  "all's",
  "seems",
  "feels",
  "looks",
  "stayed",
  "remained",
  "be",
]);
/** "I haven't", "it doesn't", "we never": a subject and a denying auxiliary. */
const PRONOUN_AUX_NO =
  /^(?:i|it|we|they|that|he|she)(?:'s|'ve|'m)?\s+(?:haven't|hasn't|don't|didn't|doesn't|isn't|wasn't|am not|'m not|have not|has not|do not|did not|can't|cannot|couldn't|never)\b/;
/** "I", "it", "my mom": who an auxiliary answer is about. */
const ANSWER_SUBJECT = `(?:i|it|we|they|that|he|she|(?:my|his|her|our)\\s+(?:\\w+\\s+)?${wordsPattern(PEOPLE.relatives)})`;

/** "I used to", "I think so", "my dad does, I believe so": a yes whatever follows. */
const AFFIRMS_WHATEVER_FOLLOWS = new RegExp(`^${ANSWER_SUBJECT}\\s+(?:used to|think so|believe so|guess so)\\b`);

/**
 * "I do", "my mom has", "I've had", "it's been": a subject and an affirmative auxiliary, not denied;
 * a yes only when the auxiliary stands for the verb of the question (`BARE_AUXILIARY_TAIL`).
 */
const PRONOUN_AUX_YES = new RegExp(
  `^(?:${ANSWER_SUBJECT}\\s+(?:have|has|do|did|does|am|is|was|were|had)|i've|we've|they've|it's|i'm)\\b(?!\\s*(?:n't|not|never))\\s*`,
);

/**
 * What may follow, in its clause, an auxiliary that answers on its own ("I do", "I have, yeah", "it
 * does sometimes", "I did last week", "I've had it on and off", "I have some"): nothing, a yes, how
 * much, how often or when, or "it"/"them" for the thing asked. Not a complement of its own: "it was
 * a long day", "I was at work all day", "I have to go", "I did my best".
 */
const BARE_AUXILIARY_TAIL = new RegExp(
  [
    "^(?:$",
    "(?:yes|yeah|yep|yup|sure|actually|too|also|though|as well|indeed|definitely|i think|i guess|i believe|kind of|sort of)\\b",
    "(?:a (?:little|bit|lot|few|couple)|just a (?:little|bit)|sometimes|somewhat|occasionally|often|usually|mostly|mainly|once|twice|lately|recently|before|now|today|yesterday|last|every|constantly|all the time)\\b",
    "(?:socially|regularly|daily|weekly|nightly|rarely|normally|generally|frequently|intermittently|here and there|now and then|from time to time)\\b",
    "(?:only|especially) (?:at|in|on)\\b|(?:only |especially )?(?:when|whenever|if|after|while|until|since|because)\\b|on and off|off and on|on (?:the )?weekends?\\b",
    "at (?:night|times|first)\\b|in the (?:mornings?|evenings?|night)\\b|this (?:morning|week|month|year)\\b)",
  ].join("|"),
);

/**
 * The verb and object an auxiliary's tail may open with before `BARE_AUXILIARY_TAIL` ("been", "had it",
 * "got some"): stripped first, because folded into that expression they made it cost V8 about 30 ms to
 * compile (the optional openings multiplied its alternatives); no alternative of the tail opens with one.
 */
const AUXILIARY_TAIL_OPENING =
  /^(?:(?:been|had|got|gotten|get|have|do|did)(?:\s+|$))?(?:(?:it|them|one|some|that|those)(?:\s+|$))?/;

/** Whether `rest` (the first sentence after any answer particle, commas kept) affirms with a bare auxiliary ("I do, mostly at night"). */
function affirmsByAuxiliary(rest: string): boolean {
  if (AFFIRMS_WHATEVER_FOLLOWS.test(rest)) return true;
  const auxiliary = PRONOUN_AUX_YES.exec(rest);
  if (auxiliary === null) return false;
  const tail = rest.slice(auxiliary[0].length).split(",")[0]!.trim();
  return BARE_AUXILIARY_TAIL.test(tail.slice(AUXILIARY_TAIL_OPENING.exec(tail)![0].length));
}

/** "It's just me", "yeah, only me": nobody else has it. */
const JUST_ME = /^(?:(?:yeah|yes|no|nope|well)\s+)*(?:it's|it\s+is|that's)?\s*(?:just|only)\s+me\b/;

/**
 * "Not sure", "I don't really know", "hard to say", "I couldn't tell you", "she can't say", "he
 * wouldn't know": an uncertain answer, whoever says it (the patient or a relative), never a denial;
 * "I can't say I have" is the hedged denial, not this.
 */
const UNSURE_ANSWER =
  /\b(?:not (?:\w+ )?sure|(?:don't|doesn't|do not|does not|wouldn't|would not) (?:really )?know|not (?:\w+ )?certain|no idea|hard to say|unsure|could be|(?:can't|cannot|couldn't|could not|can not) (?:really )?(?:say|tell)(?! i\b| i've\b)|dunno)\b/;

/** "Not that I know of", "I don't think so", "not really": a hedged no. */
const NOT_THAT_I_KNOW =
  /^(?:not that i (?:know|can think|remember|recall|am aware|'ve noticed|noticed)|i don't think so|don't think so|not really|not at all|not much|not to my knowledge)\b/;

/** "A little bit", "a few times", "only when I climb stairs", "mostly in the mornings": a qualified yes ("I do" is `PRONOUN_AUX_YES`). */
const SOME_OF_IT =
  /^(?:(?:oh|well|yeah|um)\s+)?(?:a little(?: bit)?|a bit|a tiny bit|kind of|sort of|somewhat|slightly|a few times|a couple (?:of )?times|once|twice|(?:only|just|mostly|usually|especially|mainly) (?:when|if|after|with|at|in|on|during))\b(?!\s*(?:not|n't|no|never|nothing))/;

/** The words after the first `skip` words that are not commas, joined, commas kept ("i have , yeah"). */
function wordsAfter(words: readonly string[], skip: number): string {
  let seen = 0;
  const at = words.findIndex((word) => word !== "," && seen++ === skip);
  return at < 0 ? "" : words.slice(at).join(" ");
}

/** Whether a token is a negation: a cue ("not", "haven't", "without") or a no word ("no", "never"). */
export function isNegationWord(text: string): boolean {
  return NEGATION_CUES.has(text) || NO.has(text);
}

/**
 * Whether an answer opens with its yes or no, after words that carry none ("well, no, and I don't
 * smoke"): the no of "I don't smoke" is the smoking's, the no of "no, I don't smoke" the question's too.
 */
export function opensWithYesOrNo(tokens: readonly Token[]): boolean {
  for (const { text, kind } of tokens) {
    if (kind === "punct" && text !== ",") return false;
    if (YES.has(text) || NO.has(text)) return true;
    if (kind !== "punct" && !LEAD_IN.has(text)) return false;
  }
  return false;
}

/**
 * How the utterance answers a yes/no question, judged on its first sentence: leading particles
 * ("Yeah no" → no: the last one wins), else "I haven't"/"I do", "not that I know of", uncertainty,
 * and "it's been fine" (normal). Undefined when the utterance does not answer yes or no.
 */
export function answerPolarity(tokens: readonly Token[]): AnswerPolarity | undefined {
  const words = tokens.map((token) => token.text);
  const firstSentenceEnd = tokens.findIndex((token) => token.kind === "punct" && token.text !== ",");
  const withCommas = words.slice(0, firstSentenceEnd < 0 ? words.length : firstSentenceEnd);
  if (withCommas[0] === "i" && withCommas[1] === "mean") withCommas.splice(0, 2);
  const first = withCommas.filter((word) => word !== ",");
  // A question back ("Is he going to be okay?") answers nothing, unless it starts with yes or no.
  const asksBack = tokens[firstSentenceEnd]?.text === "?" && !YES.has(first[0] ?? "") && !NO.has(first[0] ?? "");
  if (asksBack) return undefined;
  // "It's just me": nobody else (in the family, at home) has it.
  if (JUST_ME.test(first.join(" "))) return "no";
  const text = first.join(" ");
  // "Sorry, I didn't catch that", "I'm not sure what you mean": no answer yet.
  if (ASKS_TO_REPEAT_OR_EXPLAIN.test(text)) return undefined;
  if (UNSURE_ANSWER.test(text)) return "unknown";
  if (NOT_THAT_I_KNOW.test(text.replace(/^(?:(?:um|uh|oh|well|so|no|nope)\s+)+/, ""))) {
    return /^not much\b/.test(text) ? "unknown" : "no";
  }
  if (SOME_OF_IT.test(text)) return "yes";
  let polarity: AnswerPolarity | undefined;
  let index = 0;
  for (; index < first.length; index += 1) {
    const word = first[index]!;
    if (YES.has(word)) polarity = "yes";
    else if (NO.has(word)) polarity = "no";
    else if (UNSURE.has(word)) return "unknown";
    else if (LEAD_IN.has(word) && polarity === undefined) continue;
    else break;
  }
  const rest = first.slice(index).join(" ");
  if (HEDGE_NOT_OF_AN_AMOUNT.test(rest) && polarity !== "no") return "unknown";
  if (polarity) return polarity;
  if (PRONOUN_AUX_NO.test(rest)) return "no";
  if (affirmsByAuxiliary(wordsAfter(withCommas, index))) return "yes";
  // "Hearing has been OK", "everybody's been well": a copula and a normal-state word, no negation.
  const hasNegation = first.some((word) => NEGATION_CUES.has(word));
  const normalAt = first.findIndex(
    (word, position) =>
      NORMAL_STATE.has(word) &&
      first.slice(Math.max(0, position - COPULA_WINDOW), position).some((before) => COPULAS.has(before)),
  );
  if (!hasNegation && normalAt >= 0) return "normal";
  if (hasNegation && first.length <= 6) return "no";
  return undefined;
}
