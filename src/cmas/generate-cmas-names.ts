/**
 * Writes `src/cmas/cmas-names.ts`: the slot, status, attribute, check-type, intent and action names of
 * `ontology/cmas.json` as `as const` tuples, so TypeScript types are derived from the ontology instead
 * of written by hand. Run after editing the ontology:
 *
 *   npx tsx src/cmas/generate-cmas-names.ts
 *
 * `tests/cmas/cmas-names.test.ts` fails while the generated file and the ontology disagree.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Ontology } from "./ontology.ts";

const unique = (names: Iterable<string>): string[] => [...new Set(names)];

/** One `export const NAME = [...] as const;` and its element type. */
function tuple(doc: string, constName: string, typeName: string, names: readonly string[]): string {
  const list = names.map((name) => JSON.stringify(name)).join(", ");
  return `/** ${doc} */\nexport const ${constName} = [${list}] as const;\nexport type ${typeName} = (typeof ${constName})[number];\n`;
}

/** The slot-name tuples: every slot, the medical and social groups, unprefixed and prefixed names, statuses. */
function slotTuples(ontology: Ontology): string[] {
  const nluSlots = ontology.slots.filter((slot) => !slot.actions_only);
  const medical = nluSlots.filter((slot) => slot.group === "medical");
  const social = nluSlots.filter((slot) => slot.group !== "medical");
  const prefixed = nluSlots.flatMap((slot) =>
    slot.statuses && slot.statuses.length > 0 ? slot.statuses.map((status) => `${status}_${slot.name}`) : [slot.name],
  );
  const names = (slots: typeof nluSlots) => slots.map((slot) => slot.name);
  return [
    tuple("Every slot of the ontology, in its order.", "SLOT_NAMES", "SlotName", names(ontology.slots)),
    tuple(
      "Slots headed by a canonical `value` whose NLU entries carry a status prefix (`positive_symptom`).",
      "MEDICAL_SLOT_NAMES",
      "MedicalSlotName",
      names(medical),
    ),
    tuple(
      "Social and demographic slots: no status prefix (residence, occupation, travel, basic_information).",
      "SOCIAL_SLOT_NAMES",
      "SocialSlotName",
      names(social),
    ),
    tuple(
      "Slots of NLU frames and of the dialogue state, unprefixed (all but the actions-only ones).",
      "NLU_SLOT_NAMES",
      "NluSlotName",
      names(nluSlots),
    ),
    tuple(
      "Status prefixes of medical slots, in the ontology's order.",
      "STATUS_NAMES",
      "StatusName",
      unique(medical.flatMap((slot) => slot.statuses ?? [])),
    ),
    tuple(
      "How the NLU reads presence: the statuses of the medical slots written as read (others map them through `reading_statuses`).",
      "READING_STATUS_NAMES",
      "ReadingStatusName",
      unique(medical.filter((slot) => !slot.reading_statuses).flatMap((slot) => slot.statuses ?? [])),
    ),
    tuple("Slot names of NLU frames and of the dialogue state.", "PREFIXED_SLOT_NAMES", "PrefixedSlotName", prefixed),
  ];
}

/** The attribute, check-type, intent and action tuples. */
function attributeAndActionTuples(ontology: Ontology): string[] {
  const attributes = ontology.slots.flatMap((slot) => slot.attributes.map((attribute) => attribute.name));
  const checkTypes = ontology.slots.flatMap((slot) => [
    ...slot.attributes.map((attribute) => attribute.name),
    ...(slot.check_types ?? []).map((type) => type.name),
  ]);
  return [
    tuple("Every attribute name of any slot.", "ATTRIBUTE_NAMES", "AttributeName", unique(attributes)),
    tuple(
      "Check types a doctor action may use (attribute names and the extra check types).",
      "CHECK_TYPE_NAMES",
      "CheckTypeName",
      unique(checkTypes),
    ),
    tuple(
      "Intents of patient NLU frames.",
      "NLU_INTENT_NAMES",
      "NluIntentName",
      ontology.nlu_intents.map((intent) => intent.name),
    ),
    tuple(
      "Doctor action names.",
      "ACTION_NAMES",
      "ActionName",
      ontology.actions.map((action) => action.name),
    ),
  ];
}

/** The TypeScript source of `cmas-names.ts` for an ontology. */
export function renderCmasNames(ontology: Ontology): string {
  const header =
    "// Generated from ontology/cmas.json by `npx tsx src/cmas/generate-cmas-names.ts`: do not edit by hand.\n";
  return [header, ...slotTuples(ontology), ...attributeAndActionTuples(ontology)].join("\n");
}

export const CMAS_NAMES_FILE = fileURLToPath(new URL("./cmas-names.ts", import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { ontology } = await import("./ontology.ts");
  writeFileSync(CMAS_NAMES_FILE, renderCmasNames(ontology));
  console.log(`wrote ${CMAS_NAMES_FILE}`);
}
