/**
 * Who is giving the history: the patient, or a relative or carer speaking for them ("my son has had a
 * fever", "I'm calling about my dad"). A relative's statements are the patient's history, never
 * family history; the doctor's wording follows the patient's sex ("does she…").
 */

/** Who is speaking for the patient: null relation = the patient themself. */
export interface Informant {
  /** The speaker's relation to the patient (`parent`, `mother`, `child`, `partner`, `carer`); null: the patient speaks. */
  readonly relation: string | null;
  /** The patient's age as said (`3 years`, `18 months`); null when not said. */
  readonly patientAge: string | null;
  readonly patientSex: "female" | "male" | null;
  /**
   * The age the speaker's word for the patient tells when no age is said ("my baby", "my toddler"):
   * enough to ask a young child's questions, never written in the note as an age.
   */
  readonly ageGroup?: AgeGroup;
}

/** A young child's age as a word for them tells it. */
export type AgeGroup = "baby" | "toddler";

/** A whole-history informant with the age group of one update, else of the other. */
export function withAgeGroup(informant: Informant, first?: AgeGroup, second?: AgeGroup): Informant {
  const ageGroup = first ?? second;
  return ageGroup === undefined ? informant : { ...informant, ageGroup };
}

/**
 * The informant after a turn's update: what the update tells replaces what was known, what it leaves
 * null is kept (a later "she's 3" adds the age to "my daughter" of the first turn).
 */
export function updateInformant(known: Informant | null, update: Informant | undefined): Informant | null {
  if (!update) return known;
  if (!known) return update;
  const merged = {
    relation: update.relation ?? known.relation,
    patientAge: update.patientAge ?? known.patientAge,
    patientSex: update.patientSex ?? known.patientSex,
  };
  return withAgeGroup(merged, update.ageGroup, known.ageGroup);
}
