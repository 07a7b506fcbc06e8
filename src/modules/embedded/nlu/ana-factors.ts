import type { AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";
import type { TokenSpan } from "./text.ts";

/**
 * Alleviating and aggravating factors ("worse when I am exerting myself" → aggravating: physical
 * exertion; "better when I go out for a smoke" → alleviating: smoke). A factor phrase counts only in
 * a clause that also has a worsening or relieving cue; the nearer cue decides which kind it is.
 */

export interface Factors {
  readonly aggravating: string[];
  readonly alleviating: string[];
}

const AGGRAVATING_CUES = new Set([
  "especially",
  "mainly",
  "mostly",
  "more",
  "worse",
  "worsen",
  "worsens",
  "worst",
  "aggravate",
  "aggravates",
  "trigger",
  "triggers",
  "triggered",
  "brings",
  "bring",
  "flare",
  "flares",
  "harder",
  "exacerbate",
  "exacerbates",
  "bad",
]);
const ALLEVIATING_CUES = new Set([
  "better",
  "help",
  "helps",
  "helped",
  "relieve",
  "relieves",
  "relieved",
  "ease",
  "eases",
  "eased",
  "improve",
  "improves",
  "improved",
  "settle",
  "settles",
  "calms",
  "goes",
  "away",
  "fine",
]);

function overlapsAny(start: number, end: number, spans: readonly TokenSpan[]): boolean {
  return spans.some((span) => start < span.end && span.start < end);
}

/** Words that part one factor statement from the next: "worse when I walk, [and] better when I rest". */
const STATEMENT_BREAKS = new Set([",", "and", "but", "or", "whereas", ";", "though", "although"]);

/** Statement ids per token of `[from, to)`: a new one after each break word, so each half of "X, Y" is its own. */
function statementIds(tokens: AnalysedText["tokens"], from: number, to: number): number[] {
  const ids: number[] = [];
  let id = 0;
  for (let index = from; index < to; index += 1) {
    if (STATEMENT_BREAKS.has(tokens[index]!.text)) id += 1;
    ids.push(id);
  }
  return ids;
}

/** The kind of factor a cue word signals, if it is one. */
function cueKind(text: string): keyof Factors | undefined {
  if (AGGRAVATING_CUES.has(text)) return "aggravating";
  return ALLEVIATING_CUES.has(text) ? "alleviating" : undefined;
}

/**
 * The kind of the factor at `[start, end)`: the nearest cue in its own statement ("better with rest"
 * in "worse when I walk and better with rest"), else the nearest in its clause ("worse when I walk or
 * climb stairs": "climb stairs" shares "worse").
 */
function factorKind(
  analysed: AnalysedText,
  from: number,
  to: number,
  start: number,
  end: number,
): { readonly kind: keyof Factors; readonly own: boolean } | undefined {
  const { tokens, clauses } = analysed;
  const statements = statementIds(tokens, from, to);
  let best: { distance: number; kind: keyof Factors; own: boolean } | undefined;
  for (let index = from; index < to; index += 1) {
    if (clauses[index] !== clauses[start] || (index >= start && index < end)) continue;
    const kind = cueKind(tokens[index]!.text);
    if (!kind) continue;
    const own = statements[index - from] === statements[start - from];
    const distance = Math.abs(index - start);
    if (!best || (own && !best.own) || (own === best.own && distance < best.distance)) best = { distance, kind, own };
  }
  return best && { kind: best.kind, own: best.own };
}

/**
 * Factors in tokens `[from, to)`, each of the kind its cue says (`factorKind`). Phrases overlapping
 * `exclude` (the described symptom's own mention) are skipped.
 */
export function extractFactors(
  lexicon: Lexicon,
  analysed: AnalysedText,
  from: number,
  to: number,
  exclude: readonly TokenSpan[] = [],
): Factors {
  const found: Factors = { aggravating: [], alleviating: [] };
  for (const match of lexicon.factors.findAll(analysed.tokens, from, to)) {
    if (overlapsAny(match.start, match.end, exclude)) continue;
    const cued = factorKind(analysed, from, to, match.start, match.end);
    let kind = cued?.kind;
    // "Only when I climb stairs": a condition that limits the symptom to the factor aggravates it.
    if (!kind && isLimitingCondition(analysed.tokens, from, match.start)) kind = "aggravating";
    // "I get a tight chest when I walk up hills, goes off when I rest": a factor the symptom comes
    // with, and no cue in its own statement, brings it on (the other statement's cue is the rest's).
    if (!cued?.own && comesWith(analysed.tokens, from, match.start, exclude)) kind = "aggravating";
    // "Out of breath climbing the stairs", "chest pain walking up hills": what the patient was doing.
    if (!cued?.own && whileDoing(analysed.tokens, match.start, match.end, exclude)) kind = "aggravating";
    if (!kind) continue;
    for (const factor of match.payloads) if (!found[kind].includes(factor)) found[kind].push(factor);
  }
  return found;
}

/** How many tokens before a factor phrase "only when" may start ("only when I climb stairs"). */
const LIMITING_WINDOW = 4;
const LIMITING = new Set(["only", "just", "mostly", "mainly", "especially", "usually"]);
const CONDITION = new Set(["when", "if", "after", "with", "whenever", "while"]);

/** "only when I …" / "mostly after …" within a few tokens before the factor phrase. */
function isLimitingCondition(tokens: AnalysedText["tokens"], from: number, start: number): boolean {
  for (let index = Math.max(from, start - LIMITING_WINDOW); index < start; index += 1) {
    if (CONDITION.has(tokens[index]!.text) && LIMITING.has(tokens[index - 1]?.text ?? "")) return true;
  }
  return false;
}

/**
 * "[symptom] when / whenever / if / after / while [factor]" in one statement: the symptom's own mention
 * (in `symptoms`), then within a few tokens before the factor phrase the condition word, no break between.
 */
function comesWith(tokens: AnalysedText["tokens"], from: number, start: number, symptoms: readonly TokenSpan[]) {
  let condition = -1;
  for (let index = start - 1; index >= from; index -= 1) {
    const text = tokens[index]!.text;
    if (STATEMENT_BREAKS.has(text)) return false;
    if (condition < 0 && index >= start - LIMITING_WINDOW && CONDITION.has(text) && text !== "with") condition = index;
    if (condition >= 0 && symptoms.some((span) => span.start >= index && span.end <= condition)) return true;
  }
  return false;
}

/** What one is doing when a symptom comes, said right after it: "breathless *climbing* the stairs". */
const ACTIVITY_GERUNDS = new Set([
  "walking",
  "climbing",
  "going",
  "running",
  "jogging",
  "doing",
  "carrying",
  "lifting",
  "playing",
  "exercising",
  "cycling",
  "working",
  "gardening",
  "hoovering",
  "vacuuming",
  "dancing",
  "swimming",
  "lying",
  "laying",
  "bending",
  "hurrying",
  "rushing",
]);
/** Words after a gerund factor that make it a pain's path, not an activity: "pain *running down* my leg". */
const PATH_WORDS = new Set([
  "down",
  "into",
  "through",
  "across",
  "along",
  "round",
  "around",
  "out",
  "from",
  "towards",
  "to",
]);
/** How many tokens the gerund may be from the factor phrase ("climbing [up] the stairs"). */
const ACTIVITY_WINDOW = 3;

/**
 * "[symptom] [gerund …] [factor]" with nothing between the symptom's mention and an activity gerund,
 * the factor phrase within a few tokens of it and no break: "out of breath climbing the stairs",
 * "tight chest walking up hills", "knee hurts going down stairs". Not a pain's path ("pain running
 * down my leg", "moving into my back").
 */
function whileDoing(tokens: AnalysedText["tokens"], start: number, end: number, symptoms: readonly TokenSpan[]) {
  const symptom = symptoms.find((span) => span.end <= start && start - span.end <= ACTIVITY_WINDOW);
  if (!symptom || !ACTIVITY_GERUNDS.has(tokens[symptom.end]?.text ?? "")) return false;
  for (let index = symptom.end; index < start; index += 1) if (STATEMENT_BREAKS.has(tokens[index]!.text)) return false;
  // The gerund itself as the factor ("running", "moving") followed by a path word is where a pain goes.
  return !(start === symptom.end && isPath(tokens, end));
}

/** A path word at `at` ("down my leg"); "to" only before a possessive ("to my back", not "to the shops"). */
function isPath(tokens: AnalysedText["tokens"], at: number): boolean {
  const word = tokens[at]?.text ?? "";
  return PATH_WORDS.has(word) && (word !== "to" || /^(?:my|his|her|your|their)$/.test(tokens[at + 1]?.text ?? ""));
}

/** Whether tokens `[from, to)` contain a worsening or relieving cue. */
export function hasFactorCue(analysed: AnalysedText, from: number, to: number): boolean {
  return analysed.tokens
    .slice(from, to)
    .some((token) => AGGRAVATING_CUES.has(token.text) || ALLEVIATING_CUES.has(token.text));
}

/** Every factor phrase of the text, regardless of cues (for questions that list triggers), except inside `exclude`. */
export function factorPhrases(lexicon: Lexicon, analysed: AnalysedText, exclude: readonly TokenSpan[] = []): string[] {
  const found: string[] = [];
  for (const match of lexicon.factors.findAll(analysed.tokens)) {
    if (overlapsAny(match.start, match.end, exclude)) continue;
    for (const factor of match.payloads) if (!found.includes(factor)) found.push(factor);
  }
  return found;
}
