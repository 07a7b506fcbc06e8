import { SOCIAL_SLOT_NAMES, type SocialSlotName } from "../../../cmas/cmas-names.ts";
import type { Concept, MedicalSlot } from "./lexicon.ts";

/**
 * The reading of a doctor's question, as types: what it asks about (items, slots, an attribute) and
 * how a short answer to it is to be read. `question-analysis.ts` reads a question into one; the
 * attribute extractors and the turn's passes read answers against it.
 */

/** Social and demographic slots (no status prefix), from `ontology/cmas.json`. */
export const SOCIAL_SLOTS = SOCIAL_SLOT_NAMES;
/** A social or demographic slot (no status prefix). */
export type SocialSlot = SocialSlotName;

/** Whether a slot name is a social or demographic slot. */
export function isSocialSlot(slot: string): slot is SocialSlot {
  return (SOCIAL_SLOTS as readonly string[]).includes(slot);
}
/** Any slot a doctor can ask about. */
export type AskedSlot = MedicalSlot | SocialSlot;
/**
 * The attributes a doctor question can ask for, one per extractor of `attributes/registry.ts` (the
 * registry checks at compile time that its extractors are exactly these).
 */
export const ASKED_ATTRIBUTES = [
  "onset",
  "initiation",
  "duration",
  "frequency",
  "severity",
  "progression",
  "location",
  "characteristics",
  "ana_factors",
  "volume",
  "color",
  "starting",
  "relation",
  "impact",
  "respone_to",
  "age",
] as const;
/** An attribute a doctor question can ask for. */
export type AskedAttribute = (typeof ASKED_ATTRIBUTES)[number];

/** One thing a question asks about. */
export interface AskedItem {
  readonly slot: AskedSlot;
  /** Canonical value for medical slots; "other" for open questions ("any other medications?"). */
  readonly value?: string;
  readonly location?: readonly string[];
  /** Exposure setting named in the question ("at work"). */
  readonly where?: string;
  /** Asked as an ROS topic ("any changes in your vision?"). */
  readonly topic?: boolean;
}

/** The reading of a doctor utterance. */
export interface QuestionAnalysis {
  /** False for statements ("So you started smoking around 35."): a bare "yeah" then only acknowledges. */
  readonly isQuestion: boolean;
  readonly items: readonly AskedItem[];
  readonly attribute?: AskedAttribute;
  /** "Yes" means absent: "are you otherwise healthy?", "all of that's normal?". */
  readonly inverted: boolean;
  /** Closing or small talk: "any questions for me?", "how does that sound?". */
  readonly smallTalk: boolean;
  /** Attribute values the doctor proposes, adopted on "yes" ("has it been constant?" → duration). */
  readonly proposed: Readonly<Record<string, string>>;
  /** Trigger phrases the doctor lists ("after walking a few blocks" → physical exertion). */
  readonly proposedFactors: readonly string[];
  /** The doctor offers alternatives ("at rest or when you exert yourself?"): a bare "yes" picks none. */
  readonly alternatives: boolean;
  /** Slots in play, for slot-restricted phrases and for "how about X?" follow-ups. */
  readonly slots: ReadonlySet<AskedSlot>;
  /** Symptom concepts the question names (they become the dialogue focus). */
  readonly symptoms: readonly Concept[];
  /** The question refers back ("it", "that", "your symptoms"): attributes apply to the focus. */
  readonly anaphoric: boolean;
  /** Things asked as a list with "or" ("any dizziness or fainting spells?"). */
  readonly disjunctive: boolean;
  /** "How far can you walk before you need to rest?": a severity asked as a distance. */
  readonly exerciseTolerance: boolean;
  /** "Does the pain spread anywhere?": a location asked as where the pain spreads (`language/pain-radiation.ts`). */
  readonly radiation: boolean;
  /** "Do you still have the pain?", "has it gone?": whether a symptom persists, which a "no" answers. */
  readonly persistence: boolean;
  /** "Any other pain?", "pain elsewhere?": a pain besides the one in focus, which a "no" never denies. */
  readonly otherPain: boolean;
  /** "When was your last period?": the time said is when the last period began, not a pregnancy's start. */
  readonly lastPeriod: boolean;
  /** "Any chance you could be pregnant?": a yes makes a pregnancy possible, not known. */
  readonly pregnancyChance: boolean;
  /** "Fewer wet nappies than usual?", "feeding less?": a change from the usual, which "as normal" denies. */
  readonly changeFromUsual: boolean;
  /** "Which have you had: fevers or weight loss, or both?": the patient picks; a finding not picked is absent. */
  readonly choosesAmong: boolean;
  /**
   * The one direction a trigger question asks ("anything that makes it worse?" → aggravating), so that
   * a bare answer ("cold air", "lying down") is a factor of that kind; null when it asks both or neither.
   */
  readonly factorDirection: "aggravating_factor" | "alleviating_factor" | null;
}

/** The reading when there is no doctor utterance yet. */
export const EMPTY_QUESTION: QuestionAnalysis = {
  isQuestion: false,
  items: [],
  inverted: false,
  smallTalk: false,
  proposed: {},
  proposedFactors: [],
  alternatives: false,
  slots: new Set(),
  symptoms: [],
  anaphoric: false,
  persistence: false,
  otherPain: false,
  lastPeriod: false,
  pregnancyChance: false,
  changeFromUsual: false,
  choosesAmong: false,
  disjunctive: false,
  exerciseTolerance: false,
  radiation: false,
  factorDirection: null,
};
