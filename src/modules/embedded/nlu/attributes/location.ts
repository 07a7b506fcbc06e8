import { extractLocations } from "../body-locations.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** "Where is it?", "does it go anywhere?", "which part?". */
const LOCATION_CUE =
  /\bwhere (?:is|does|do|exactly|abouts|on your|in your)|which part|point to|where do you feel|radiat\w*|(?:move|go|travel|spread)(?:s|ing)? (?:anywhere|elsewhere|to (?:any|other))|anywhere else\b/;

/** Where a symptom is. */
export const location = {
  name: "location",
  appliesTo: ["symptom"],
  questionCue: LOCATION_CUE,
  readAnswer: (turn, entry) => setFound(turn, entry, "location", extractLocations(turn.lexicon, turn.analysed, 0, turn.analysed.tokens.length)),
  example: { history: ["What brings you in?", "I have some swelling."], question: "Where is the swelling?", answer: "In my ankles.", attribute: "location", expected: ["ankle"] },
} as const satisfies AttributeExtractor;
