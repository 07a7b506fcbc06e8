import type { AgeGroup } from "../../../../language/informant.ts";

/**
 * Who a proxy speaks for, as data: the words a relative or carer calls the patient ("my son", "my
 * dad"), each with the speaker's relation to the patient and the patient's sex the word tells, and
 * the words a speaker calls themself ("I'm her mum"). Read by `nlu/informant.ts`; every word has an
 * example in `tests/modules/embedded/nlu/informant.test.ts`.
 */

/** What a word for the patient tells: the speaker's relation to them, their sex, and the lexicon's relation the word is a form of. */
export interface PatientWord {
  readonly speaker: string;
  readonly sex: "female" | "male" | null;
  /** The relation of `ontology/lexicon.json` this word names (what the family-history reading finds), if any. */
  readonly lexicon?: string;
  /** The young child's age the word tells ("my toddler"), when no age is said. */
  readonly ageGroup?: AgeGroup;
}

/** The patient as a relative calls them ("my son" → the speaker is a parent, the patient male). */
export const PATIENT_WORDS: Readonly<Record<string, PatientWord>> = {
  son: { speaker: "parent", sex: "male", lexicon: "son" },
  boy: { speaker: "parent", sex: "male" },
  daughter: { speaker: "parent", sex: "female", lexicon: "daughter" },
  girl: { speaker: "parent", sex: "female" },
  child: { speaker: "parent", sex: null },
  kid: { speaker: "parent", sex: null, lexicon: "children" },
  baby: { speaker: "parent", sex: null, ageGroup: "baby" },
  toddler: { speaker: "parent", sex: null, ageGroup: "toddler" },
  "little one": { speaker: "parent", sex: null },
  dad: { speaker: "child", sex: "male", lexicon: "father" },
  father: { speaker: "child", sex: "male", lexicon: "father" },
  mum: { speaker: "child", sex: "female", lexicon: "mother" },
  mom: { speaker: "child", sex: "female", lexicon: "mother" },
  mother: { speaker: "child", sex: "female", lexicon: "mother" },
  husband: { speaker: "partner", sex: "male", lexicon: "husband" },
  wife: { speaker: "partner", sex: "female", lexicon: "wife" },
  partner: { speaker: "partner", sex: null, lexicon: "partner" },
  brother: { speaker: "sibling", sex: "male", lexicon: "brother" },
  sister: { speaker: "sibling", sex: "female", lexicon: "sister" },
  grandad: { speaker: "grandchild", sex: "male", lexicon: "grandfather" },
  grandpa: { speaker: "grandchild", sex: "male", lexicon: "grandfather" },
  grandfather: { speaker: "grandchild", sex: "male", lexicon: "grandfather" },
  nan: { speaker: "grandchild", sex: "female" },
  gran: { speaker: "grandchild", sex: "female" },
  grandma: { speaker: "grandchild", sex: "female", lexicon: "grandmother" },
  grandmother: { speaker: "grandchild", sex: "female", lexicon: "grandmother" },
  grandson: { speaker: "grandparent", sex: "male" },
  granddaughter: { speaker: "grandparent", sex: "female" },
};

/** What a speaker calls themself ("I'm his dad", "I'm her carer"): their relation as the note says it. */
export const SPEAKER_WORDS: Readonly<Record<string, string>> = {
  mum: "mother",
  mom: "mother",
  mother: "mother",
  dad: "father",
  father: "father",
  parent: "parent",
  carer: "carer",
  caregiver: "carer",
  wife: "wife",
  husband: "husband",
  partner: "partner",
  daughter: "daughter",
  son: "son",
  sister: "sister",
  brother: "brother",
  nurse: "carer",
};
