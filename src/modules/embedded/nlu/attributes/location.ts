import { isRadiation, NOT_RADIATING, radiatingTo } from "../../../../language/pain-radiation.ts";
import { sentenceOf, type AnalysedText } from "../analysed-text.ts";
import {
  abdominalRegion,
  ABDOMEN,
  extractLocations,
  GENERALISED,
  nextSubjectStart,
  WHOLE_BODY,
} from "../body-locations.ts";
import type { TurnRecord } from "../turn-record.ts";
import type { CollectedEntry } from "../frame-builder.ts";
import { setFound, type AttributeExtractor, type VolunteeredSpan } from "./attribute-extractor.ts";

/** "Where is it?", "does it go anywhere?", "which part?". */
const LOCATION_CUE =
  /\bwhere (?:is|does|do|exactly|abouts|on your|in your)|which part|point to|where do you feel|radiat\w*|(?:move|go|travel|spread)(?:s|ing)? (?:anywhere|elsewhere|to (?:any|other))|anywhere else\b/;

/** How many tokens after a symptom its site may be named ("pain in my left calf"), and before it ("left calf pain"). */
const SITE_AFTER_WINDOW = 8;
const SITE_BEFORE_WINDOW = 3;

/** Verbs a pain spreads by ("it goes down my arm", "shooting into my jaw", "spreads round to my back"). */
const SPREAD_VERBS = new Set(
  "goes going went spreads spreading spread radiates radiating radiated shoots shooting shot travels travelling traveling moves moving runs running".split(
    " ",
  ),
);
/** A pain, by its CMAS value: only a pain spreads. Example: "pain", "chest pain", "headache", "earache", "chest tightness". */
const PAIN_VALUE = /\bpain$|ache$|^chest tightness$/;
/** Where a spreading pain heads: the word after its verb (one word may stand between: "goes right down"). */
const DIRECTIONS = new Set("down into up to round around through across towards toward".split(" "));

/**
 * A pain staying where it is. Example: "no, it stays put", "it stays in the middle", "it's just
 * there", "nowhere else", "it doesn't spread".
 */
const STAYS_PUT =
  /\b(?:stays?|staying)\b|\b(?:just|only) (?:there|here|in (?:the|that|one) (?:one |same )?(?:place|spot))\b|\bnowhere else\b|\b(?:doesn't|does not|don't|didn't) (?:spread|move|go anywhere|radiate)\b/;

/** The side a site is on, said right before it ("my left arm"). */
const SIDES = new Set(["left", "right"]);

/**
 * Where a pain spreads, from `[from, to)`: each site named, with its side when said ("left upper
 * extremity"). With `ownOnly` (a volunteered description), not a site of "your" body: a patient's
 * "the crushing pain that moves up your neck" describes what a heart attack is said to feel like.
 */
function spreadSites(turn: TurnRecord, from: number, to: number, ownOnly = false): string[] {
  const { tokens } = turn.analysed;
  const sites: string[] = [];
  for (const match of turn.lexicon.locations.findAll(tokens, from, to)) {
    const side = tokens[match.start - 1]?.text;
    const owner = side !== undefined && SIDES.has(side) ? tokens[match.start - 2]?.text : side;
    if (ownOnly && owner === "your") continue;
    for (const site of match.payloads) {
      const named = radiatingTo(side !== undefined && SIDES.has(side) ? `${side} ${site}` : site);
      if (!sites.includes(named)) sites.push(named);
    }
  }
  return sites;
}

/** The token where a pain's spreading begins in `[from, to)`: a spread verb followed by a direction ("goes down"). */
function spreadStart(analysed: AnalysedText, from: number, to: number): number {
  const { tokens } = analysed;
  for (let index = from; index < to; index += 1) {
    if (!SPREAD_VERBS.has(tokens[index]!.text)) continue;
    const next = [tokens[index + 1]?.text, tokens[index + 2]?.text];
    if (next.some((word) => word !== undefined && DIRECTIONS.has(word))) return index;
  }
  return -1;
}

/** Whether the sites said after a symptom are only "all over" ("my tummy hurts all over"). */
const isAllOver = (sites: readonly string[]) => sites.length === 1 && sites[0] === WHOLE_BODY;

/**
 * A site named before a symptom that then hurts "all over" it: "my tummy hurts all over" is the whole
 * abdomen (generalised), not the whole body; with no site before, the whole body it is.
 */
function allOverSite(before: readonly string[], after: readonly string[]): readonly string[] {
  if (before.length === 0) return after;
  return before.includes(ABDOMEN) && before.length === 1 ? [ABDOMEN, GENERALISED] : before;
}

/**
 * A symptom phrase that says "all over" itself ("hurts all over", "sore all over"), after a site
 * ("my tummy hurts all over"): that site, all over, not the whole body.
 */
function readAllOverForm({ turn, mention, entry, clause }: VolunteeredSpan): void {
  const location = entry.attributes.location;
  if (!mention || !Array.isArray(location) || !isAllOver(location)) return;
  const from = Math.max(clause[0], mention.start - SITE_BEFORE_WINDOW);
  const before = extractLocations(turn.lexicon, turn.analysed, from, mention.start);
  if (before.length > 0) entry.attributes.location = [...allOverSite(before, location)];
}

/**
 * The site of a locatable symptom named around it: after it, else just before it, else the clause's
 * subject ("my ankles have been swollen"); sites after a spreading verb in its span are where it
 * spreads ("a pain in my chest that goes down my left arm": chest, radiating to left arm).
 */
function readVolunteeredSite(span: VolunteeredSpan): void {
  const { lexicon, analysed, entries } = span.turn;
  const { mention, entry } = span;
  if (!mention) return readVolunteeredSpread(span);
  if (entry.attributes.location !== undefined) return readAllOverForm(span);
  const value = entry.attributes.value as string;
  const spread = PAIN_VALUE.test(value) ? spreadStart(analysed, mention.end, span.spanEnd) : -1;
  const spreadsTo = spread >= 0 ? spreadSites(span.turn, spread, span.spanEnd, true) : [];
  // A pain named by its site ("chest pain", "headache") has no site of its own to read, only where it spreads.
  if (!lexicon.locatable.has(value)) {
    if (spreadsTo.length > 0) entries.set(entry, "location", spreadsTo);
    return;
  }
  const [clauseStart, clauseEnd] = span.clause;
  const siteEnd = spread >= 0 ? Math.min(spread, clauseEnd) : clauseEnd;
  const afterEnd = nextSubjectStart(analysed, mention.end, Math.min(siteEnd, mention.end + SITE_AFTER_WINDOW));
  const after = extractLocations(lexicon, analysed, mention.end, afterEnd);
  const before = () =>
    extractLocations(lexicon, analysed, Math.max(clauseStart, mention.start - SITE_BEFORE_WINDOW), mention.start);
  const near = after.length > 0 ? (isAllOver(after) ? allOverSite(before(), after) : after) : before();
  const sites = near.length > 0 ? near : extractLocations(lexicon, analysed, clauseStart, mention.start);
  entries.set(entry, "location", [...(sites.length > 0 ? sites : topicSite(span)), ...spreadsTo]);
}

/**
 * Where the pain asked about spreads, said in a sentence that does not name it ("it goes down my
 * left arm a bit" to "can you describe the tightness?"). Only a spread: a site said alone ("my left
 * arm is fine") is no site of the pain's.
 */
function readVolunteeredSpread(span: VolunteeredSpan): void {
  const { analysed, entries } = span.turn;
  if (!PAIN_VALUE.test(span.entry.attributes.value as string)) return;
  const spread = spreadStart(analysed, span.sentence[0], span.sentence[1]);
  const spreadsTo = spread >= 0 ? spreadSites(span.turn, spread, span.sentence[1], true) : [];
  if (spreadsTo.length > 0) entries.set(span.entry, "location", spreadsTo);
}

/**
 * A short sentence that names where the trouble is before saying what it is. Example: "it's my chest
 * doc", "my back", "its my tummy".
 */
const TOPIC_SITE_SENTENCE = /^(?:(?:it's|its|it is|it's to do with|the trouble is|the problem is)\s+)?(?:my|me|the)\s/;

/** The site of a topic sentence right before the symptom's sentence ("its my chest doc. got this awful pain"), else none. */
function topicSite(span: VolunteeredSpan): string[] {
  const { lexicon, analysed } = span.turn;
  const [sentenceStart] = sentenceOf(analysed, span.mention!.start);
  const before = analysed.sentences.find(([, end]) => end === sentenceStart - 1 || end === sentenceStart);
  if (!before || before[1] - before[0] > 6) return [];
  const text = analysed.tokens
    .slice(before[0], before[1])
    .map((token) => token.text)
    .join(" ");
  return TOPIC_SITE_SENTENCE.test(text) ? extractLocations(lexicon, analysed, before[0], before[1]) : [];
}

/**
 * The answer to "does the pain spread anywhere?": the sites after a spreading verb ("no, but it goes
 * down my arm sometimes"), else that it stays put ("no", "it just stays in the middle of my chest"),
 * else the sites named ("yeah, into my jaw").
 */
function readRadiationAnswer(turn: TurnRecord, entry: CollectedEntry): boolean {
  const { analysed } = turn;
  const end = analysed.tokens.length;
  // The state replaces a location list whole: where the pain is stays beside where it spreads.
  const sited = (found: readonly string[]): boolean => {
    const known = entry.attributes.value === "pain" ? turn.context.painSites : [];
    return setFound(turn, entry, "location", [...new Set([...known.filter((site) => !isRadiation(site)), ...found])]);
  };
  const spread = spreadStart(analysed, 0, end);
  const spreadsTo = spread >= 0 ? spreadSites(turn, spread, end) : [];
  if (spreadsTo.length > 0) return sited(spreadsTo);
  // "No, it's just there in my side": the side is where it is.
  if (turn.polarity === "no" || STAYS_PUT.test(analysed.text))
    return sited([...extractLocations(turn.lexicon, analysed, 0, end), NOT_RADIATING]);
  const named = spreadSites(turn, 0, end);
  return named.length > 0 && sited(named);
}

/**
 * The answer to "where is the pain?": the sites named; about a tummy pain, a side or level said
 * without a site ("right side", "on the right, low down") is where in the abdomen it is.
 */
function readSiteAnswer(turn: TurnRecord, entry: CollectedEntry): boolean {
  const { analysed, lexicon } = turn;
  const sites = extractLocations(lexicon, analysed, 0, analysed.tokens.length);
  const known = entry.attributes.location;
  const atAbdomen = Array.isArray(known) ? known.includes("abdomen") : known === "abdomen";
  const region = atAbdomen && sites.length === 0 ? abdominalRegion(analysed.text) : undefined;
  return setFound(turn, entry, "location", region ? ["abdomen", region] : sites);
}

/** Where a symptom is. */
export const location = {
  name: "location",
  appliesTo: ["symptom"],
  questionCue: LOCATION_CUE,
  readVolunteered: readVolunteeredSite,
  readAnswer: (turn, entry) =>
    turn.context.question.radiation ? readRadiationAnswer(turn, entry) : readSiteAnswer(turn, entry),
  example: {
    history: ["What brings you in?", "I have some swelling."],
    question: "Where is the swelling?",
    answer: "In my ankles.",
    attribute: "location",
    expected: ["ankle"],
  },
} as const satisfies AttributeExtractor;
