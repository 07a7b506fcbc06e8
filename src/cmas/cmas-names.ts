// Generated from ontology/cmas.json by `npx tsx src/cmas/generate-cmas-names.ts`: do not edit by hand.

/** Every slot of the ontology, in its order. */
export const SLOT_NAMES = ["symptom", "medical_history", "family_history", "habit", "exposure", "medication", "medical_test", "residence", "occupation", "travel", "basic_information", "disease"] as const;
export type SlotName = (typeof SLOT_NAMES)[number];

/** Slots headed by a canonical `value` whose NLU entries carry a status prefix (`positive_symptom`). */
export const MEDICAL_SLOT_NAMES = ["symptom", "medical_history", "family_history", "habit", "exposure", "medication", "medical_test"] as const;
export type MedicalSlotName = (typeof MEDICAL_SLOT_NAMES)[number];

/** Social and demographic slots: no status prefix (residence, occupation, travel, basic_information). */
export const SOCIAL_SLOT_NAMES = ["residence", "occupation", "travel", "basic_information"] as const;
export type SocialSlotName = (typeof SOCIAL_SLOT_NAMES)[number];

/** Slots of NLU frames and of the dialogue state, unprefixed (all but the actions-only ones). */
export const NLU_SLOT_NAMES = ["symptom", "medical_history", "family_history", "habit", "exposure", "medication", "medical_test", "residence", "occupation", "travel", "basic_information"] as const;
export type NluSlotName = (typeof NLU_SLOT_NAMES)[number];

/** Status prefixes of medical slots, in the ontology's order. */
export const STATUS_NAMES = ["positive", "negative", "unknown", "avail", "unavail"] as const;
export type StatusName = (typeof STATUS_NAMES)[number];

/** How the NLU reads presence: the statuses of the medical slots written as read (others map them through `reading_statuses`). */
export const READING_STATUS_NAMES = ["positive", "negative", "unknown"] as const;
export type ReadingStatusName = (typeof READING_STATUS_NAMES)[number];

/** Slot names of NLU frames and of the dialogue state. */
export const PREFIXED_SLOT_NAMES = ["positive_symptom", "negative_symptom", "unknown_symptom", "positive_medical_history", "negative_medical_history", "unknown_medical_history", "positive_family_history", "negative_family_history", "unknown_family_history", "positive_habit", "negative_habit", "unknown_habit", "positive_exposure", "negative_exposure", "unknown_exposure", "positive_medication", "negative_medication", "unknown_medication", "avail_medical_test", "unavail_medical_test", "residence", "occupation", "travel", "basic_information"] as const;
export type PrefixedSlotName = (typeof PREFIXED_SLOT_NAMES)[number];

/** Every attribute name of any slot. */
export const ATTRIBUTE_NAMES = ["value", "onset", "initiation", "location", "duration", "severity", "progression", "frequency", "positive_characteristics", "negative_characteristics", "unknown_characteristics", "alleviating_factor", "not_alleviating_factor", "aggravating_factor", "not_aggravating_factor", "not_alleviating_aggravating_factor", "unknown_factor", "unknown_ana_factor", "volume", "color", "itching", "lesion_size", "lesions_peel_off", "rash_swollen", "starting", "relation", "where", "when", "start", "impact", "respone_to", "status", "household_size", "exposure", "destination", "date", "name", "age", "gender", "sex"] as const;
export type AttributeName = (typeof ATTRIBUTE_NAMES)[number];

/** Check types a doctor action may use (attribute names and the extra check types). */
export const CHECK_TYPE_NAMES = ["value", "onset", "initiation", "location", "duration", "severity", "progression", "frequency", "positive_characteristics", "negative_characteristics", "unknown_characteristics", "alleviating_factor", "not_alleviating_factor", "aggravating_factor", "not_aggravating_factor", "not_alleviating_aggravating_factor", "unknown_factor", "unknown_ana_factor", "volume", "color", "itching", "lesion_size", "lesions_peel_off", "rash_swollen", "characteristics", "ana_factors", "starting", "relation", "where", "when", "start", "impact", "respone_to", "status", "household_size", "exposure", "destination", "date", "name", "age", "gender", "sex"] as const;
export type CheckTypeName = (typeof CHECK_TYPE_NAMES)[number];

/** Intents of patient NLU frames. */
export const NLU_INTENT_NAMES = ["inform", "chit-chat", "nod_prompt_salutations"] as const;
export type NluIntentName = (typeof NLU_INTENT_NAMES)[number];

/** Doctor action names. */
export const ACTION_NAMES = ["inquire", "chit-chat", "nod_prompt_salutations", "diagnosis", "other"] as const;
export type ActionName = (typeof ACTION_NAMES)[number];
