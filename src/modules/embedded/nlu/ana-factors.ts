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

/**
 * Factors in tokens `[from, to)`, with their kind decided by the nearest cue in the same clause.
 * Phrases overlapping `exclude` (the described symptom's own mention) are skipped.
 */
export function extractFactors(
  lexicon: Lexicon,
  analysed: AnalysedText,
  from: number,
  to: number,
  exclude: readonly TokenSpan[] = [],
): Factors {
  const { tokens, clauses } = analysed;
  const found: Factors = { aggravating: [], alleviating: [] };
  for (const match of lexicon.factors.findAll(tokens, from, to)) {
    if (overlapsAny(match.start, match.end, exclude)) continue;
    let best: { distance: number; kind: keyof Factors } | undefined;
    for (let index = from; index < to; index += 1) {
      if (clauses[index] !== clauses[match.start] || (index >= match.start && index < match.end)) continue;
      const text = tokens[index]!.text;
      const kind: keyof Factors | undefined = AGGRAVATING_CUES.has(text)
        ? "aggravating"
        : ALLEVIATING_CUES.has(text)
          ? "alleviating"
          : undefined;
      if (!kind) continue;
      const distance = Math.abs(index - match.start);
      if (!best || distance < best.distance) best = { distance, kind };
    }
    // "Only when I climb stairs": a condition that limits the symptom to the factor aggravates it.
    if (!best && isLimitingCondition(tokens, from, match.start)) best = { distance: 0, kind: "aggravating" };
    if (!best) continue;
    for (const factor of match.payloads) if (!found[best.kind].includes(factor)) found[best.kind].push(factor);
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
