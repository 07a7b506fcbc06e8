import { sentenceOf, textOf } from "../analysed-text.ts";
import { lexiconFile } from "../lexicon.ts";
import type { TurnRecord } from "../turn-record.ts";
import { wordsPattern } from "../word-lists.ts";

/**
 * Pass "allergic reactions": "Penicillin gives me a rash", "I break out in hives if I take sulfa",
 * "Peanuts make my lips swell up". A reaction the patient gets from a drug or a food is an allergy
 * (`medical_history`: drug allergy, food allergy), whatever the question was: the rash is not a
 * current symptom and the drug is not a medication taken.
 *
 * A drug beside a symptom is no allergy by itself: "I have a headache that eases off when I take
 * Tylenol" is a headache and a medication taken for it. An allergy needs an allergy cue: the words
 * ("allergic", "a reaction to", "anaphylaxis"), a drug or food that causes the symptom ("penicillin
 * gives me", "I can't take ibuprofen because it makes me …"), or an allergic reaction (rash, hives,
 * swelling, itching, wheezing: `lexicon.json` allergic_reactions) after taking it.
 */

/** Generic words of the allergen lists: they name a class ("food makes me bloated"), not an allergen. */
const GENERIC_ALLERGEN_WORDS = new Set([
  "drug",
  "drugs",
  "medication",
  "medications",
  "medicine",
  "medicines",
  "meds",
  "food",
  "foods",
]);

/** The allergy concepts with the specific allergen words of `ontology/lexicon.json` (drug and food). */
const ALLERGEN_WORDS: ReadonlyArray<readonly [value: string, words: RegExp]> = (
  ["drug allergy", "food allergy"] as const
).map((value) => [
  value,
  new RegExp(wordsPattern((lexiconFile.allergens[value] ?? []).filter((word) => !GENERIC_ALLERGEN_WORDS.has(word)))),
]);

/** The symptoms that are an allergic reaction when they follow taking a drug or eating a food. */
const ALLERGIC_REACTIONS = new Set(lexiconFile.allergic_reactions);

/** "Allergic to", "an allergy to", "a reaction to": what follows is what the patient is allergic to. Example: "I'm allergic to penicillin". */
const ALLERGIC_TO = /\b(?:allergic|allerg(?:y|ies)|reactions?|react(?:s|ed)?) (?:to|from|with)\b/g;

/**
 * An allergy in words, the allergen elsewhere in the sentence: "Penicillin, I went into anaphylaxis",
 * "a bad reaction", "reacts badly"; not a diagnosis ("Claritin for allergic rhinitis").
 */
const ALLERGY_WORDS =
  /\b(?:allergic(?! (?:rhinitis|conjunctivitis|asthma|eczema|dermatitis))|anaphyla\w*|(?:bad|allergic|severe) reactions?|react(?:s|ed)? badly)\b/;

/**
 * A cause: "gives me", "made my", "brings me out", "sets me off". Example: "amoxicillin makes me come
 * out in hives" (the drug or food must stand just before it, or "it" refer to one).
 */
const CAUSE_CUE = /\b(?:gives?|gave|makes?|made|brings?|brought|causes?|caused|sets?) (?:me|my)\b/g;

/**
 * Taking it, after which a reaction comes: "if I take", "when I ate", "every time I have", "after
 * taking", "I can't eat". Example: "I get a rash when I take amoxicillin".
 */
const TAKING_CUE =
  /\b(?:(?:if|when|whenever|after|once|every time|each time) i (?:take|took|eat|ate|have|had|use|used)|after (?:taking|eating|having)|can(?:'t|not) (?:take|have|eat|tolerate))\b/;

/** A sentence saying the drug relieves ("Tylenol gives me some relief", "eases off when I take it"): a treatment, not a reaction. */
const RELIEVES =
  /\b(?:help(?:s|ed|ing)?|relie(?:f|ve|ves|ved)|better|easier|eases?|eased|easing|settles?|settled|calms?|calmed|soothes?|(?:goes|go|went|gone) away|clears? up|cleared up|takes? the edge off|took the edge off|gets? rid of|got rid of|does the trick)\b/;

/** How many tokens from a cue the drug or food may stand ("sulfa drugs always give me", "allergic to the penicillin"). */
const AGENT_WINDOW = 3;

/** "It", "they", "that": what the patient just named. */
const REFERENCE = new Set(["it", "they", "them", "that", "this", "which", "those", "these"]);

/** The allergy of the drug or food at token `index` (an allergen word, a medication phrase), or undefined. */
function allergyAt(turn: TurnRecord, index: number): string | undefined {
  const listed = ALLERGEN_WORDS.find(([, words]) => words.test(turn.analysed.tokens[index]?.text ?? ""))?.[0];
  if (listed) return listed;
  return turn.found.some(
    ({ mention, entry }) => entry.base === "medication" && mention.start <= index && index < mention.end,
  )
    ? "drug allergy"
    : undefined;
}

/** The allergy of what a reference at `index` points to: the last thing named before it, when that is a drug or food. */
function referredAllergy(turn: TurnRecord, sentenceStart: number, index: number): string | undefined {
  for (let at = index - 1; at >= sentenceStart; at -= 1) {
    const allergy = allergyAt(turn, at);
    if (allergy) return allergy;
    if (turn.found.some(({ mention }) => mention.start <= at && at < mention.end)) return undefined;
  }
  return undefined;
}

/**
 * The allergy of the drug or food in tokens `[from, to)` of a sentence, else of what a reference at
 * `reference` points to ("I can't take ibuprofen because it makes me wheezy"; not "I take Tylenol
 * for my headache but it makes me dizzy").
 */
function agentAllergy(
  turn: TurnRecord,
  sentenceStart: number,
  [from, to]: readonly [number, number],
  reference: number,
): string | undefined {
  for (let at = Math.max(sentenceStart, from); at < to; at += 1) {
    const allergy = allergyAt(turn, at);
    if (allergy) return allergy;
  }
  return REFERENCE.has(turn.analysed.tokens[reference]?.text ?? "")
    ? referredAllergy(turn, sentenceStart, reference)
    : undefined;
}

/** The token spans of each match of a global `cue` in the sentence `[start, end)`. */
function cueSpans(turn: TurnRecord, start: number, end: number, cue: RegExp): Array<readonly [number, number]> {
  const { tokens } = turn.analysed;
  const offset = tokens[start]!.start;
  const tokenAt = (char: number) => tokens.findIndex((token, index) => index >= start && token.end > char);
  return [...textOf(turn.analysed, start, end).matchAll(cue)].map(
    (match) => [tokenAt(offset + match.index), tokenAt(offset + match.index + match[0].length - 1) + 1] as const,
  );
}

/** The allergy a drug or food causing a reaction says ("penicillin gives me a rash"), or undefined. */
function causedAllergy(turn: TurnRecord, start: number, end: number): string | undefined {
  for (const [cue] of cueSpans(turn, start, end, CAUSE_CUE)) {
    const allergy = agentAllergy(turn, start, [cue - AGENT_WINDOW, cue], cue - 1);
    if (allergy) return allergy;
  }
  return undefined;
}

/** The allergy of "allergic to X" (X a drug or food), false when what follows is neither ("allergic to pollen"), undefined without the words. */
function allergicTo(turn: TurnRecord, start: number, end: number): string | false | undefined {
  const spans = cueSpans(turn, start, end, ALLERGIC_TO);
  if (spans.length === 0) return undefined;
  for (const [, after] of spans) {
    const allergy = agentAllergy(turn, start, [after, Math.min(end, after + AGENT_WINDOW)], after);
    if (allergy) return allergy;
  }
  return false;
}

/** The allergy the sentence `[start, end)` names with an allergy cue, or undefined. */
function cuedAllergy(turn: TurnRecord, sentence: string, start: number, end: number): string | undefined {
  const named = allergicTo(turn, start, end);
  if (named !== undefined) return named || undefined;
  const inSentence = turn.found.filter(({ mention }) => mention.start >= start && mention.start < end);
  const reactions = inSentence.filter(({ entry }) => entry.base === "symptom" && entry.status === "positive");
  if (reactions.length > 0) {
    const caused = causedAllergy(turn, start, end);
    if (caused) return caused;
  }
  const allergicReaction =
    TAKING_CUE.test(sentence) &&
    reactions.some(({ entry }) => ALLERGIC_REACTIONS.has(entry.attributes.value as string));
  if (!allergicReaction && !ALLERGY_WORDS.test(sentence)) return undefined;
  if (inSentence.some(({ entry }) => entry.base === "medication")) return "drug allergy";
  return ALLERGEN_WORDS.find(([, words]) => words.test(sentence))?.[0];
}

/**
 * Where a new statement starts inside a sentence: ", and", ", but", ", so", "but", and "and" before
 * "I"/"my". Example: "I'm allergic to peanuts | , and I take Tylenol for headaches".
 */
const STATEMENT_BREAK = /(?:,\s*(?:and|but|so|also|plus)|\bbut|\band(?= (?:i|i'm|i've|my)\b))\b/g;

/** Every cue of an allergy, to find the statements that hold one ("allergic to", "gives me", "if I take"). */
const ALLERGY_CUES = [
  ALLERGIC_TO,
  CAUSE_CUE,
  new RegExp(ALLERGY_WORDS.source, "g"),
  new RegExp(TAKING_CUE.source, "g"),
];

type Span = readonly [number, number];

/** The statements of the sentence `[start, end)`, split at each statement break. */
function statementsOf(turn: TurnRecord, start: number, end: number): Span[] {
  const edges = [start, ...cueSpans(turn, start, end, STATEMENT_BREAK).map(([from]) => from), end];
  return edges
    .slice(0, -1)
    .flatMap((from, index): Span[] => (edges[index + 1]! > from ? [[from, edges[index + 1]!]] : []));
}

/** The concept mentions found in a statement. */
function foundIn(turn: TurnRecord, [from, to]: Span): TurnRecord["found"] {
  return turn.found.filter(({ mention }) => mention.start >= from && mention.start < to);
}

/** "…, and it gave me hives": the statement says "it" and names no drug or food of its own. */
function refersBack(turn: TurnRecord, [from, to]: Span): boolean {
  const indices = Array.from({ length: to - from }, (_, offset) => from + offset);
  return (
    indices.some((index) => REFERENCE.has(turn.analysed.tokens[index]!.text)) &&
    !indices.some((index) => allergyAt(turn, index))
  );
}

/** "…, and my skin gets itchy": the statement only goes on naming allergic reactions. */
function onlyReactions(turn: TurnRecord, statement: Span): boolean {
  const found = foundIn(turn, statement);
  return (
    found.length > 0 &&
    found.every(({ entry }) => entry.base === "symptom" && ALLERGIC_REACTIONS.has(entry.attributes.value as string))
  );
}

/**
 * The statements of the sentence `[start, end)` that belong to its allergy: those with an allergy cue,
 * the one "it" refers back to, and those that only go on with reactions (the whole sentence when no
 * statement holds a cue). "I'm allergic to peanuts, and I take Tylenol for headaches": only the first.
 */
function allergyStatements(turn: TurnRecord, start: number, end: number): Span[] {
  const statements = statementsOf(turn, start, end);
  const inAllergy = statements.map(([from, to]) =>
    ALLERGY_CUES.some((cue) => cueSpans(turn, from, to, cue).length > 0),
  );
  if (!inAllergy.includes(true)) return [[start, end]];
  for (let index = statements.length - 1; index > 0; index -= 1)
    if (inAllergy[index] && refersBack(turn, statements[index]!)) inAllergy[index - 1] = true;
  for (let index = 1; index < statements.length; index += 1)
    if (!inAllergy[index] && inAllergy[index - 1] && onlyReactions(turn, statements[index]!)) inAllergy[index] = true;
  return statements.filter((_, index) => inAllergy[index]);
}

/** Reads each sentence that reports a reaction to a drug or food as that allergy. */
export function readAllergicReactions(turn: TurnRecord): void {
  const { analysed, entries } = turn;
  const seen = new Set<number>();
  for (const [start, end] of analysed.sentences) {
    if (seen.has(start)) continue;
    seen.add(start);
    const sentence = textOf(analysed, start, end);
    const allergy = RELIEVES.test(sentence) ? undefined : cuedAllergy(turn, sentence, start, end);
    if (!allergy) continue;
    // Only the allergen and the reaction: the sentence's other statements keep their facts.
    const reaction = allergyStatements(turn, start, end).flatMap((statement) =>
      foundIn(turn, statement).filter(({ mention }) => sentenceOf(analysed, mention.start)[0] === start),
    );
    for (const found of reaction) {
      if (found.entry.base !== "symptom" && found.entry.base !== "medication") continue;
      entries.remove(found.entry);
      turn.found.splice(turn.found.indexOf(found), 1);
    }
    const entry = entries.add("medical_history", "positive", allergy);
    if (entry) turn.found.push({ mention: { start, end }, entry });
  }
}
