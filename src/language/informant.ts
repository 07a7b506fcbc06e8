/**
 * Who is giving the history: the patient, or a relative or carer speaking for them ("my son has had a
 * fever", "I'm calling about my dad"). A relative's statements are the patient's history, never
 * family history; the doctor's wording follows the patient's sex ("does she…").
 */

/** Who is speaking for the patient: null relation = the patient themself. */
export interface Informant {
  /** The speaker's relation to the patient, as the patient's relation to them (`son`, `father`, `carer`); null: the patient. */
  readonly relation: string | null;
  /** The patient's age as said (`3 years`, `18 months`); null when not said. */
  readonly patientAge: string | null;
  readonly patientSex: "female" | "male" | null;
}

/**
 * The informant after a turn's update: what the update tells replaces what was known, what it leaves
 * null is kept (a later "she's 3" adds the age to "my daughter" of the first turn).
 */
export function updateInformant(known: Informant | null, update: Informant | undefined): Informant | null {
  if (!update) return known;
  if (!known) return update;
  return {
    relation: update.relation ?? known.relation,
    patientAge: update.patientAge ?? known.patientAge,
    patientSex: update.patientSex ?? known.patientSex,
  };
}
