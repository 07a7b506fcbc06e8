import { MEDICAL_SLOT_NAMES, type MedicalSlotName } from "../../../cmas/cmas-names.ts";
import { loadOntologyFile, type OntologyFile } from "../../../ontology/ontology-files.ts";
import { readBundledJson } from "../../../foundation/package-paths.ts";
import { PhraseIndex } from "./phrase-index.ts";
import { cleanFormKeys, cleanText, tokenize } from "./text.ts";

/**
 * The concept vocabulary of the NLU: our hand-written lexicon (`ontology/lexicon.json`), the
 * annotation tool's suggestion lists, and whatever the training annotations add, compiled into
 * phrase indexes once at build time.
 */

/** The annotation tool's suggestion lists, keyed like `"symptom.location"`. */
const valueListsJson = readBundledJson("data/meditod/labeling_interface_value_lists.json") as Record<string, string[]>;

/** Slots whose entries are headed by a canonical `value` and carry their status as a prefix (from `ontology/cmas.json`). */
export const MEDICAL_SLOTS = MEDICAL_SLOT_NAMES;
/** A medical slot name. */
export type MedicalSlot = MedicalSlotName;

/** Whether a slot name is a medical (value-headed, status-prefixed) slot. */
export function isMedicalSlot(name: string): name is MedicalSlot {
  return (MEDICAL_SLOTS as readonly string[]).includes(name);
}

/** Values of open questions ("any other medications?"): asked about, never reported. */
export const OPEN_VALUES: ReadonlySet<string> = new Set(["other", "all", "none"]);
/** Values that name a question rather than a concept, so their names are not surface forms. */
export const NON_LEXICAL_VALUES: ReadonlySet<string> = new Set([
  ...OPEN_VALUES,
  "general",
  "past experience",
  "similar symptoms",
]);

/** A canonical concept a phrase can denote. */
export interface Concept {
  readonly slot: MedicalSlot;
  readonly value: string;
  /** Locations implied by the phrase itself ("abdominal pain" → abdomen). */
  readonly location?: readonly string[];
  /** An ROS topic word ("vision"): "my vision is fine" denies the concept. */
  readonly topic?: boolean;
}

/** Concept equality (slot, value, implied location, topic flag). */
export function sameConcept(a: Concept, b: Concept): boolean {
  return (
    a.slot === b.slot &&
    a.value === b.value &&
    (a.location ?? []).join("|") === (b.location ?? []).join("|") &&
    !!a.topic === !!b.topic
  );
}

/** The validated content of `ontology/lexicon.json`. */
export type LexiconFile = OntologyFile<"lexicon.json">;

/** The parsed hand-written lexicon (validated, so a bad edit fails at load with a path). */
export const lexiconFile: LexiconFile = loadOntologyFile("lexicon.json");

/** The compiled lexicon: phrase indexes and lookup tables, built once per engine. */
export interface Lexicon {
  /** Concept phrases valid anywhere. */
  readonly concepts: PhraseIndex<Concept>;
  /** Phrases that denote a concept only while the doctor is asking about that slot. */
  readonly contextConcepts: ReadonlyMap<string, PhraseIndex<Concept>>;
  /** Body locations → canonical location names. */
  readonly locations: PhraseIndex<string>;
  /** Alleviating/aggravating factor phrases → canonical factor names. */
  readonly factors: PhraseIndex<string>;
  readonly progression: PhraseIndex<string>;
  /** Per symptom value, characteristic phrases → canonical characteristic. */
  readonly characteristics: ReadonlyMap<string, PhraseIndex<string>>;
  readonly colors: ReadonlySet<string>;
  readonly relations: PhraseIndex<string>;
  readonly residences: PhraseIndex<string>;
  readonly occupations: PhraseIndex<string>;
  /** Symptom values that take a location from nearby body parts. */
  readonly locatable: ReadonlySet<string>;
  /** Every word of every concept form, the targets of spelling correction. */
  readonly words: ReadonlySet<string>;
  /** Canonical values per slot (for recognising annotated value names). */
  readonly values: ReadonlyMap<MedicalSlot, ReadonlySet<string>>;
  /** Medication → conditions it treats, most typical first (for `respone_to`). */
  readonly indications: ReadonlyMap<string, readonly string[]>;
  /** Locations that come in a left and a right: a side said before one is kept ("my left knee" → "left knee"). */
  readonly pairedSites: ReadonlySet<string>;
  /** Generic symptom + location → the specific concept ("pain" in the chest → "chest pain"). */
  readonly specificByLocation: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** A generic concept made specific by a word in its sentence ("allergic" + "penicillin" → drug allergy). */
  readonly upgrades: ReadonlyArray<{
    readonly value: string;
    readonly when: ReadonlySet<string>;
    readonly becomes: string;
  }>;
}

/**
 * Whether a concept is a specific pain ("chest pain", "headache", pain with a site): what a generic
 * "it hurts" or "that pain" refers to when one was just discussed.
 */
export function isSpecificPain(
  lexicon: Lexicon,
  concept: { readonly value?: string; readonly location?: readonly string[] },
): boolean {
  if (concept.value === "pain") return (concept.location?.length ?? 0) > 0;
  return Object.values(lexicon.specificByLocation.get("pain") ?? {}).includes(concept.value ?? "");
}

/** Extra (concept, form) pairs, e.g. mined from the training annotations. */
export interface LexiconAdditions {
  readonly concepts?: ReadonlyArray<{ readonly concept: Concept; readonly form: string }>;
}

function mapIndex(forms: Record<string, readonly string[]>): PhraseIndex<string> {
  const index = new PhraseIndex<string>();
  for (const [canonical, list] of Object.entries(forms)) {
    index.add(canonical, canonical);
    for (const form of list) index.add(form, canonical);
  }
  return index;
}

function listIndex(list: readonly string[]): PhraseIndex<string> {
  const index = new PhraseIndex<string>();
  for (const form of list) index.add(form, form);
  return index;
}

/** Whether a form is already known (its whole token sequence matches an existing phrase). */
function covers<T>(index: PhraseIndex<T>, form: string): boolean {
  const tokens = tokenize(cleanText(form)).filter((token) => token.kind !== "punct");
  const match = index.longestAt(tokens, 0);
  return match !== undefined && match.end === tokens.length;
}

/** The concept phrase index with the words and values it holds. */
interface ConceptVocabulary {
  readonly concepts: PhraseIndex<Concept>;
  readonly words: Set<string>;
  readonly values: Map<MedicalSlot, Set<string>>;
}

/** Adds one surface form of a concept: to the phrase index, the slot's values and the speller's words. */
function addConceptTo({ concepts, words, values }: ConceptVocabulary, concept: Concept, form: string): void {
  // Cleaned once for both: the index's keys and the speller's words (a few thousand forms per build).
  const clean = cleanText(form);
  concepts.addKeys(cleanFormKeys(clean), concept, sameConcept);
  values.get(concept.slot)?.add(concept.value);
  if (!concept.topic) for (const word of clean.match(/[a-z]+/g) ?? []) if (word.length >= 4) words.add(word);
}

/** The additions' forms the vocabulary does not cover yet (their values are recorded either way). */
function addConcepts(vocabulary: ConceptVocabulary, additions: LexiconAdditions): void {
  for (const { concept, form } of additions.concepts ?? []) {
    if (!covers(vocabulary.concepts, form)) addConceptTo(vocabulary, concept, form);
    else vocabulary.values.get(concept.slot)?.add(concept.value);
  }
}

/** Concepts, located concepts and topic words of the file, then the tool's diseases. */
function buildConcepts(file: LexiconFile): ConceptVocabulary {
  const vocabulary: ConceptVocabulary = {
    concepts: new PhraseIndex<Concept>(),
    words: new Set(),
    values: new Map(MEDICAL_SLOTS.map((slot) => [slot, new Set<string>()])),
  };
  const { concepts } = vocabulary;
  const addConcept = (concept: Concept, form: string) => addConceptTo(vocabulary, concept, form);
  for (const [slot, forms] of Object.entries(file.concepts)) {
    if (!isMedicalSlot(slot)) continue;
    for (const [value, list] of Object.entries(forms)) {
      const concept: Concept = { slot, value };
      // The canonical name is a form too ("hemoptysis", "wheezing"), unless it is a placeholder.
      if (!NON_LEXICAL_VALUES.has(value)) addConcept(concept, value);
      for (const form of list) addConcept(concept, form);
    }
  }
  for (const entry of file.located_concepts) {
    if (!isMedicalSlot(entry.slot)) continue;
    for (const form of entry.forms)
      addConcept({ slot: entry.slot, value: entry.value, location: entry.location }, form);
  }
  for (const [slot, forms] of Object.entries(file.topics)) {
    if (!isMedicalSlot(slot)) continue;
    for (const [value, list] of Object.entries(forms))
      for (const form of list) addConcept({ slot, value, topic: true }, form);
  }
  // The annotation tool's disease list: diseases our lexicon does not know yet, named as listed.
  for (const disease of valueListsJson["disease.value"] as string[]) {
    if (/^(abdomen|lung disease|heart disease)$/.test(disease) || covers(concepts, disease)) continue;
    addConcept({ slot: "medical_history", value: disease }, disease);
  }
  return vocabulary;
}

/** Phrases that denote a concept only while the doctor asks about their slot. */
function buildContextConcepts(file: LexiconFile): Map<string, PhraseIndex<Concept>> {
  const contextConcepts = new Map<string, PhraseIndex<Concept>>();
  for (const [slot, forms] of Object.entries(file.context_forms)) {
    const index = new PhraseIndex<Concept>();
    if (isMedicalSlot(slot))
      for (const [value, list] of Object.entries(forms))
        for (const form of list) index.add(form, { slot, value }, sameConcept);
    contextConcepts.set(slot, index);
  }
  return contextConcepts;
}

/** Our forms of a vocabulary first, then the annotation tool's list (as named there, `clean` applied) where ours miss it. */
function withToolList(
  forms: Record<string, string[]>,
  toolList: readonly string[],
  clean: (name: string) => string = (name) => name,
): PhraseIndex<string> {
  const index = mapIndex(forms);
  for (const listed of toolList) {
    const name = clean(listed);
    if (name && !covers(index, name)) index.add(name, name);
  }
  return index;
}

/** The lexicon around a concept vocabulary: the file's other indexes and the annotation tool's lists. */
function assembleLexicon(file: LexiconFile, { concepts, words, values }: ConceptVocabulary): Lexicon {
  // Locations: the tool's 240 body sites with the laterality suffix dropped ("knee(L)" → "knee"); "nowhere" is no site.
  const sites = (valueListsJson["symptom.location"] as string[]).filter(
    (site) => site.replace(/\((?:L|R)\)$/, "").trim() !== "nowhere",
  );
  const characteristics = new Map<string, PhraseIndex<string>>();
  for (const [value, forms] of Object.entries(file.characteristics)) characteristics.set(value, mapIndex(forms));
  return {
    concepts,
    contextConcepts: buildContextConcepts(file),
    locations: withToolList({ ...file.locations }, sites, (site) => site.replace(/\((?:L|R)\)$/, "").trim()),
    pairedSites: new Set([
      ...file.paired_locations,
      ...sites.filter((site) => /\((?:L|R)\)$/.test(site)).map((site) => site.replace(/\((?:L|R)\)$/, "").trim()),
    ]),
    factors: withToolList({ ...file.ana_factors }, valueListsJson["symptom.ana factors"] as string[]),
    progression: mapIndex(file.progression),
    characteristics,
    colors: new Set(file.colors),
    relations: mapIndex(file.relations),
    residences: listIndex(file.residences),
    occupations: listIndex(file.occupations),
    locatable: new Set(file.locatable),
    words,
    values,
    indications: new Map(Object.entries(file.medication_indications)),
    specificByLocation: new Map(Object.entries(file.specific_by_location)),
    upgrades: file.concept_upgrades.map((upgrade) => ({
      value: upgrade.value,
      when: new Set(upgrade.when),
      becomes: upgrade.becomes,
    })),
  };
}

/** Compiles the lexicon, the annotation tool's lists, and any additions. */
export function buildLexicon(additions: LexiconAdditions = {}, file: LexiconFile = lexiconFile): Lexicon {
  const vocabulary = buildConcepts(file);
  addConcepts(vocabulary, additions);
  return assembleLexicon(file, vocabulary);
}

/**
 * `buildLexicon(mine(buildLexicon()).additions)`, compiled once: `mine` reads the lexicon as built from
 * the files (it must not keep it for later), then its additions are added to that same lexicon.
 * Compiling it twice cost about 34 ms of every engine start.
 */
export function buildMinedLexicon<M extends { readonly additions: LexiconAdditions }>(
  mine: (lexicon: Lexicon) => M,
  file: LexiconFile = lexiconFile,
): { lexicon: Lexicon; mined: M } {
  const vocabulary = buildConcepts(file);
  const lexicon = assembleLexicon(file, vocabulary);
  const mined = mine(lexicon);
  addConcepts(vocabulary, mined.additions);
  return { lexicon, mined };
}
