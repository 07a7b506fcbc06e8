import * as z from "zod";

/** The zod schema of `ontology/lexicon.json`: the embedded NLU's concepts, surface forms and descriptor vocabularies. */

const formMap = z.record(z.string(), z.array(z.string()));
export const lexiconSchema = z.object({
  concepts: z.record(z.string(), formMap),
  context_forms: z.record(z.string(), formMap),
  topics: z.record(z.string(), formMap),
  locatable: z.array(z.string()),
  located_concepts: z.array(z.object({ slot: z.string(), value: z.string(), location: z.array(z.string()), forms: z.array(z.string()) })),
  locations: formMap,
  /**
   * Our location names that come in a left and a right (the annotation tool's own paired sites,
   * "knee(L)", are added at build): a side said before one is kept ("my left calf" → "left structure
   * of calf of leg").
   */
  paired_locations: z.array(z.string()),
  ana_factors: formMap,
  progression: formMap,
  characteristics: z.record(z.string(), formMap),
  colors: z.array(z.string()),
  relations: formMap,
  residences: z.array(z.string()),
  occupations: z.array(z.string()),
  medication_indications: formMap,
  specific_by_location: z.record(z.string(), z.record(z.string(), z.string())),
  /** What each allergy concept is to (words of an answer to "any allergies?"), in the order they are tried. */
  allergens: z.record(z.string(), z.array(z.string())),
  /**
   * Symptoms that are an allergic reaction when they follow taking a drug or eating a food ("I get a
   * rash when I take amoxicillin"); any other symptom beside a drug is no allergy by itself.
   */
  allergic_reactions: z.array(z.string()),
  /** Body sites that restate a concept rather than locate it (the skin of a rash). */
  restating_sites: z.record(z.string(), z.string()),
  concept_upgrades: z.array(z.object({ value: z.string(), when: z.array(z.string()), becomes: z.string() })),
});
