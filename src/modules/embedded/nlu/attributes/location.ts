import { extractLocations } from "../body-locations.ts";
import { setFound, type AttributeExtractor, type VolunteeredSpan } from "./attribute-extractor.ts";

/** "Where is it?", "does it go anywhere?", "which part?". */
const LOCATION_CUE =
  /\bwhere (?:is|does|do|exactly|abouts|on your|in your)|which part|point to|where do you feel|radiat\w*|(?:move|go|travel|spread)(?:s|ing)? (?:anywhere|elsewhere|to (?:any|other))|anywhere else\b/;

/** How many tokens after a symptom its site may be named ("pain in my left calf"), and before it ("left calf pain"). */
const SITE_AFTER_WINDOW = 6;
const SITE_BEFORE_WINDOW = 3;

/** The site of a locatable symptom named around it: after it, else just before it, else the clause's subject ("my ankles have been swollen"). */
function readVolunteeredSite(span: VolunteeredSpan): void {
  const { lexicon, analysed, entries } = span.turn;
  const { mention, entry } = span;
  if (!mention || !lexicon.locatable.has(entry.attributes.value as string) || entry.attributes.location !== undefined)
    return;
  const [clauseStart, clauseEnd] = span.clause;
  const after = extractLocations(lexicon, analysed, mention.end, Math.min(clauseEnd, mention.end + SITE_AFTER_WINDOW));
  const near =
    after.length > 0
      ? after
      : extractLocations(lexicon, analysed, Math.max(clauseStart, mention.start - SITE_BEFORE_WINDOW), mention.start);
  entries.set(
    entry,
    "location",
    near.length > 0 ? near : extractLocations(lexicon, analysed, clauseStart, mention.start),
  );
}

/** Where a symptom is. */
export const location = {
  name: "location",
  appliesTo: ["symptom"],
  questionCue: LOCATION_CUE,
  readVolunteered: readVolunteeredSite,
  readAnswer: (turn, entry) =>
    setFound(turn, entry, "location", extractLocations(turn.lexicon, turn.analysed, 0, turn.analysed.tokens.length)),
  example: {
    history: ["What brings you in?", "I have some swelling."],
    question: "Where is the swelling?",
    answer: "In my ankles.",
    attribute: "location",
    expected: ["ankle"],
  },
} as const satisfies AttributeExtractor;
