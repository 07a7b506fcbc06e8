import { extractFactors } from "../ana-factors.ts";
import { ownMentions } from "../concept-mentions.ts";
import type { CollectedEntry } from "../frame-builder.ts";
import type { TurnRecord } from "../turn-record.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** "What makes it better or worse?", "any triggers?", "worse at night?", "at rest or when you exert yourself?". */
const ANA_FACTORS_CUE = new RegExp(
  [
    "\\b(?:makes? (?:it|them|that|things|the \\w+|either \\w+|your \\w+)(?: \\w+)? (?:better|worse)",
    "made (?:it|them|that|things|the \\w+|either \\w+)?\\s*(?:or \\w+ )?(?:\\w+ )?(?:better|worse)",
    "triggers?|anything (?:that )?(?:helps?|makes?|made|brings?|sets?)|relieve|aggravate",
    "worse (?:at|in|when|with|after|during)|better (?:at|in|when|with|after)|time of (?:the )?day",
    "at rest or|when you exert|exert yourself|with exertion|on exertion|bring(?:s)? (?:it|them) on|doing anything that's made)\\b",
  ].join("|"),
);

/** Words that make what follows the time of a trigger. Example: "(when I) smoke", "(after I've had a) drink", "(whenever) I smoke". */
const TRIGGER_TIME_BEFORE = /\b(?:when|whenever|after|if|while)\s+(?:i|i'm|i've|i'd)?\s*(?:\w+\s+){0,2}$/;

/** Whether a habit phrase is said as when the symptom comes: "when I smoke" to "does anything make it worse?". */
function habitAsTrigger(analysed: TurnRecord["analysed"], mention: { readonly start: number }): boolean {
  return TRIGGER_TIME_BEFORE.test(analysed.text.slice(0, analysed.tokens[mention.start]?.start ?? 0));
}

/** The triggers and relievers of a symptom; a bare yes adopts the doctor's, a bare no denies them. */
function readFactors(turn: TurnRecord, entry: CollectedEntry): boolean {
  const { lexicon, analysed, polarity, found } = turn;
  const { proposedFactors } = turn.context.question;
  // Neither the symptom itself, a medication ("Tylenol Cold") nor the patient's own habit ("I used to
  // smoke, gave up 5 years ago") is a trigger, unless the habit is said as when it comes ("when I smoke").
  const own = [
    ...ownMentions(lexicon, analysed, entry.attributes.value as string),
    ...found
      .filter(
        ({ entry: other, mention }) =>
          other.base === "medication" || (other.base === "habit" && !habitAsTrigger(analysed, mention)),
      )
      .map(({ mention }) => mention),
  ];
  const factors = extractFactors(lexicon, analysed, 0, analysed.tokens.length, own);
  turn.entries.set(entry, "aggravating_factor", factors.aggravating);
  turn.entries.set(entry, "alleviating_factor", factors.alleviating);
  if (factors.aggravating.length + factors.alleviating.length > 0) return true;
  const named = lexicon.factors
    .findAll(analysed.tokens)
    .filter((match) => !own.some((span) => match.start < span.end && span.start < match.end))
    .flatMap((match) => match.payloads);
  if (polarity === "yes") {
    // "Yeah, exertion. As well as the cough itself": the doctor's triggers and any named in the answer.
    turn.entries.set(entry, "aggravating_factor", [...proposedFactors, ...named]);
    return proposedFactors.length + named.length > 0;
  }
  // "Cold air and smoke" to "anything make the cough worse?": the factors named are of the kind asked.
  const { factorDirection } = turn.context.question;
  if (polarity !== "no" && factorDirection && named.length > 0) return setFound(turn, entry, factorDirection, named);
  if (polarity === "no" && proposedFactors.length > 0)
    return setFound(turn, entry, "not_aggravating_factor", proposedFactors);
  return false;
}

/** What makes a symptom worse or better. */
export const anaFactors = {
  name: "ana_factors",
  appliesTo: ["symptom"],
  questionCue: ANA_FACTORS_CUE,
  readVolunteered: (span) => {
    const factors = extractFactors(span.turn.lexicon, span.turn.analysed, span.clause[0], span.spanEnd, span.exclude);
    span.turn.entries.set(span.entry, "aggravating_factor", factors.aggravating);
    span.turn.entries.set(span.entry, "alleviating_factor", factors.alleviating);
  },
  readAnswer: readFactors,
  example: {
    history: ["What brings you in?", "I get short of breath."],
    question: "Does anything make it worse?",
    answer: "It's worse when I climb stairs.",
    attribute: "aggravating_factor",
    expected: ["physical exertion"],
  },
} as const satisfies AttributeExtractor;
