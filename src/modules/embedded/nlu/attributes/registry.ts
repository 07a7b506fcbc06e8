import type { AttributeExtractor } from "./attribute-extractor.ts";
import type { AskedAttribute } from "../question-types.ts";
import { age } from "./age.ts";
import { anaFactors } from "./ana-factors.ts";
import { characteristics } from "./characteristics.ts";
import { color } from "./color.ts";
import { duration } from "./duration.ts";
import { frequency } from "./frequency.ts";
import { impact } from "./impact.ts";
import { initiation } from "./initiation.ts";
import { location } from "./location.ts";
import { onset } from "./onset.ts";
import { progression } from "./progression.ts";
import { relation } from "./relation.ts";
import { responeTo } from "./respone-to.ts";
import { severity } from "./severity.ts";
import { starting } from "./starting.ts";
import { volume } from "./volume.ts";

/**
 * The attributes a doctor can ask about, one file each, in the order their question cues are tried
 * (the first that matches names the question's attribute: "how often" before "how long", the
 * specific before the general). Adding an attribute is one file here plus its example.
 */
export const ATTRIBUTE_EXTRACTORS = [
  age,
  severity,
  starting,
  volume,
  frequency,
  color,
  anaFactors,
  progression,
  characteristics,
  initiation,
  location,
  responeTo,
  impact,
  duration,
  onset,
  relation,
] as const satisfies readonly AttributeExtractor[];

type ExtractorName = (typeof ATTRIBUTE_EXTRACTORS)[number]["name"];
/** Compiles only while the extractors are exactly the attributes `question-types.ts` lists. */
const sameNames: [ExtractorName, AskedAttribute] extends [AskedAttribute, ExtractorName] ? true : never = true;
void sameNames;

const byName = new Map<string, AttributeExtractor>(
  ATTRIBUTE_EXTRACTORS.map((extractor) => [extractor.name, extractor]),
);

/** The extractor of an attribute, or undefined. */
export function attributeExtractor(name: string | undefined): AttributeExtractor | undefined {
  return name === undefined ? undefined : byName.get(name);
}

/** Whether a name is an attribute a doctor question can ask for. */
export function isAskedAttribute(name: string): name is AskedAttribute {
  return byName.has(name);
}

/** Attributes that describe a symptom: asked about "it", they refer to the symptom in focus. */
export const SYMPTOM_ATTRIBUTES: ReadonlySet<string> = new Set(
  ATTRIBUTE_EXTRACTORS.filter((extractor) => (extractor.appliesTo as readonly string[]).includes("symptom")).map(
    (extractor) => extractor.name,
  ),
);
