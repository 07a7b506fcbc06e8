import { sentenceOf, textOf } from "../analysed-text.ts";
import { lexiconFile } from "../lexicon.ts";
import type { TurnRecord } from "../turn-record.ts";
import { wordsPattern } from "../word-lists.ts";

/**
 * Pass "denied allergies": "no allergies", "I'm not allergic to anything", "no known allergies". The
 * lexicon reads the bare word "allergies" as hay fever (allergic rhinitis), as MediTOD's annotators
 * mostly did for "I get allergies"; but a patient who denies allergies in general is telling the
 * doctor what a note records as "no known allergies" — no allergy to a medicine, the allergy that
 * matters for prescribing — and not that they have no hay fever. A denial that names a hay-fever
 * trigger ("not allergic to pollen", "no hay fever") stays hay fever.
 */

/** A general allergy word. Example: "no known allergies", "not allergic to anything". */
const GENERAL_ALLERGY_WORD = /\ballerg(?:y|ies|ic)\b/i;

/** Hay-fever words (its triggers in `ontology/lexicon.json`, and its names). Example: "not allergic to pollen". */
const HAY_FEVER_WORD = new RegExp(
  `${wordsPattern(lexiconFile.allergens["allergic rhinitis"] ?? [], ["rhinitis", "sneezing", "runny nose"])}`,
  "i",
);

/** The value a general denial of allergies is recorded as. */
const DENIED_ALLERGY = "drug allergy";

/** Renames each denied hay fever of a general allergy denial to a denied drug allergy. */
export function readDeniedAllergies(turn: TurnRecord): void {
  for (const { mention, entry } of turn.found) {
    if (entry.base !== "medical_history" || entry.status !== "negative") continue;
    if (entry.attributes.value !== "allergic rhinitis") continue;
    const [start, end] = sentenceOf(turn.analysed, mention.start);
    const sentence = textOf(turn.analysed, start, end);
    if (GENERAL_ALLERGY_WORD.test(sentence) && !HAY_FEVER_WORD.test(sentence))
      turn.entries.rename(entry, DENIED_ALLERGY);
  }
}
