import { textOf, type AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";
import { NUMBER_PATTERN, tidySpan } from "./text.ts";

/**
 * Descriptors of a symptom: progression (canonical phrases), colour and volume (spans as said), and
 * characteristics (canonical per symptom: "mostly dry" → "dry cough"). Each works on a token range of
 * an analysed utterance, usually the clause or sentence of the symptom mention.
 */

/** Words after "worse"/"better" that make it a trigger, not a trend ("gets worse when I walk"). */
const FACTOR_FOLLOWERS = new Set([
  "when",
  "with",
  "if",
  "after",
  "at",
  "in",
  "during",
  "whenever",
  "while",
  "on",
  "from",
  "by",
  "because",
]);
/** Particles between the trend and a trigger ("eases off when I take Tylenol", "calms down after I rest"). */
const PARTICLES = new Set(["off", "down", "up", "a", "bit", "little", "lot"]);
/** Forms of "unchanged" that only mean progression when the doctor asked about the trend. */
const WEAK_UNCHANGED = new Set([
  "same",
  "the same",
  "pretty much the same",
  "about the same",
  "constant",
  "stable",
  "steady",
]);

/**
 * The progression stated in tokens `[from, to)`, as a canonical phrase ("gradually getting worse over
 * time"). `asked` admits weak forms ("the same", "stable").
 */
export function extractProgression(
  lexicon: Lexicon,
  analysed: AnalysedText,
  from: number,
  to: number,
  asked = false,
): string | undefined {
  const { tokens } = analysed;
  for (const match of lexicon.progression.findAll(tokens, from, to)) {
    let next = tokens[match.end];
    for (let at = match.end; next && PARTICLES.has(next.text); at += 1) next = tokens[at + 1];
    if (next && FACTOR_FOLLOWERS.has(next.text)) continue;
    const said = textOf(analysed, match.start, match.end);
    // "around the same time" is about when, not how it changed.
    if (next?.text === "time") continue;
    if (!asked && WEAK_UNCHANGED.has(said)) continue;
    return match.payloads[0];
  }
  return undefined;
}

const JOINERS = new Set(["or", "and", "to", ","]);

/** The colour said in tokens `[from, to)`: a run of colour words with their joiners ("white or yellowish"). */
export function extractColor(lexicon: Lexicon, analysed: AnalysedText, from: number, to: number): string | undefined {
  const { tokens } = analysed;
  for (let index = from; index < to; index += 1) {
    if (!lexicon.colors.has(tokens[index]!.text)) continue;
    let end = index + 1;
    while (end < to) {
      if (lexicon.colors.has(tokens[end]!.text)) end += 1;
      else if (JOINERS.has(tokens[end]!.text) && end + 1 < to && lexicon.colors.has(tokens[end + 1]!.text)) end += 2;
      else if ((tokens[end]!.text === "in" || tokens[end]!.text === "ish") && tokens[end + 1]?.text.startsWith("colo"))
        break;
      else break;
    }
    return tidySpan(textOf(analysed, index, end).replace(/\s*,\s*/g, ", "));
  }
  return undefined;
}

/** An amount brought up: "5 to 10 teaspoons a day", "a tablespoon every morning". */
const VOLUME = new RegExp(
  `\\b((?:${NUMBER_PATTERN}(?:\\s*(?:to|or|-)\\s*${NUMBER_PATTERN})?|a|an|half\\s+a|a\\s+few|a\\s+couple\\s+of|couple\\s+of)\\s+(?:teaspoon|tablespoon|tbsp|tsp|cup|ml|millilit(?:er|re)|spoonful|cupful|handful|mouthful|shot\\s+glass|litre|liter)s?(?:\\s+(?:a|per|each|every)\\s+(?:day|hour|time|cough|morning|night))?)`,
  "g",
);

/**
 * The amount (of sputum, usually): "5 to 10 teaspoons a day". With several, the most specific
 * (longest) one wins: "like a teaspoon… maybe 5 to 10 teaspoons a day" → the daily total.
 */
export function extractVolume(text: string): string | undefined {
  let best: string | undefined;
  for (const match of text.matchAll(VOLUME)) {
    const span = tidySpan(match[1]!);
    if (!best || span.length > best.length) best = span;
  }
  return best;
}

/**
 * Canonical characteristics of `value` said in tokens `[from, to)` ("it's mostly dry" → ["dry
 * cough"]). Symptoms without a characteristics vocabulary yield none.
 */
export function extractCharacteristics(
  lexicon: Lexicon,
  value: string,
  analysed: AnalysedText,
  from: number,
  to: number,
): string[] {
  const index = lexicon.characteristics.get(value);
  if (!index) return [];
  const found: string[] = [];
  for (const match of index.findAll(analysed.tokens, from, to)) {
    const previous = analysed.tokens[match.start - 1];
    // "not dry" / "isn't productive" describe what it is not.
    if (previous && /^(?:not|isn't|wasn't|never|no)$/.test(previous.text)) continue;
    for (const canonical of match.payloads) if (!found.includes(canonical)) found.push(canonical);
  }
  return found;
}
