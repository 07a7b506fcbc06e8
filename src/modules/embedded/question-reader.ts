import { checkTypes, slotDefinition } from "../../cmas/ontology.ts";
import type { ActionEntry, DoctorAction } from "../../cmas/schemas.ts";
import type { QuestionReader } from "../../language/question-reader.ts";
import { analyseText } from "./nlu/analysed-text.ts";
import type { AskedAttribute, AskedItem } from "./nlu/question-types.ts";
import { buildNluResources, type NluResources } from "./nlu.ts";
import type { TrainingData } from "./training-data.ts";
import { loadHistoryPlan } from "../../language/history-plan.ts";
import { RADIATION_CHECK_VALUE } from "../../language/pain-radiation.ts";

/**
 * Reads a doctor's free-text question into CMAS doctor actions — the reverse direction of the chat,
 * for practice mode, where a person plays the doctor and the simulated patient answers. It reuses the
 * embedded NLU's question analysis (the same lexicon, spelling corrector, training question memory and
 * dialogue context it uses to read what a patient's answer refers to); it adds only the mapping from
 * that analysis to actions.
 */

/** Which check type asks for an analysed attribute, per slot (habits "start", medications "start"…). */
function checkFor(slot: string, attribute: AskedAttribute | undefined): string | undefined {
  if (attribute === undefined) return undefined;
  const definition = slotDefinition(slot);
  if (!definition) return undefined;
  const allowed = checkTypes(definition);
  const candidates: string[] = [attribute];
  if (attribute === "onset" || attribute === "starting") candidates.push("starting", "start", "onset", "when");
  if (attribute === "location") candidates.push("where", "destination");
  return candidates.find((candidate) => allowed.includes(candidate));
}

/** The action entry of one asked item; `radiation`: the location asked is where the pain spreads. */
function entryOf(item: AskedItem, attribute: AskedAttribute | undefined, radiation = false): ActionEntry {
  const definition = slotDefinition(item.slot);
  let value: string | undefined = item.value;
  if (definition?.group === "demographic") value = attribute === "age" ? "age" : "other";
  else if (definition?.group === "social") value = "other";
  const check = checkFor(item.slot, attribute === "age" && item.slot !== "basic_information" ? undefined : attribute);
  const values = radiation && check === "location" ? { values: [RADIATION_CHECK_VALUE] } : {};
  return { ...(value !== undefined ? { value } : {}), ...(check ? { checks: [{ type: check, ...values }] } : {}) };
}

/** Groups entries by slot into one `inquire` action per slot, in the order the slots were asked. */
function inquiries(entries: ReadonlyArray<readonly [string, ActionEntry]>): DoctorAction[] {
  const bySlot = new Map<string, ActionEntry[]>();
  for (const [slot, entry] of entries) {
    const list = bySlot.get(slot) ?? [];
    if (!list.some((existing) => existing.value === entry.value)) list.push(entry);
    bySlot.set(slot, list);
  }
  return [...bySlot].map(([slot, list]) => ({ action: "inquire", [slot]: list }));
}

/**
 * Every attribute a question asks, by the plan's check cues ("how long has the cough been going on?"
 * asks its onset and its duration), added to the entries of the medical slots it names, so practice
 * mode credits each of them and not only the one the NLU's analysis picked.
 */
function withAllChecks(actions: DoctorAction[], text: string): DoctorAction[] {
  const asked = [...loadHistoryPlan().checkCues]
    .filter(([, cues]) => cues.some((cue) => cue.test(text)))
    .map(([type]) => type);
  if (asked.length === 0) return actions;
  return actions.map((action) => {
    if (action.action !== "inquire") return action;
    const widened: DoctorAction = { ...action };
    for (const [slot, entries] of Object.entries(action)) {
      const definition = slotDefinition(slot);
      if (!Array.isArray(entries) || definition?.group !== "medical") continue;
      const allowed = checkTypes(definition);
      widened[slot] = entries.map((entry) => {
        const have = new Set((entry.checks ?? []).map((check) => check.type));
        const added = asked.filter((type) => allowed.includes(type) && !have.has(type)).map((type) => ({ type }));
        return added.length > 0 ? { ...entry, checks: [...(entry.checks ?? []), ...added] } : entry;
      });
    }
    return widened;
  });
}

/** A question reader over already-built NLU resources. */
export function questionReaderFrom(resources: NluResources): QuestionReader {
  const { reader, smallTalk, correct } = resources;
  return {
    read(utterance, history = []) {
      const text = utterance.trim();
      if (text === "") return [];
      const context = reader.read([...history, { speaker: "doctor", text }]);
      const question = context.question;
      const { attribute } = question;
      if (question.items.length > 0) {
        return withAllChecks(
          inquiries(question.items.map((item) => [item.slot, entryOf(item, attribute, question.radiation)] as const)),
          text,
        );
      }
      // "When did it start?", "Does it help?": the attribute of what the conversation is about.
      if (attribute && attribute !== "age") {
        const referents =
          (attribute === "respone_to" || attribute === "impact") && context.medications.length > 0
            ? context.medications
            : context.focus;
        if (referents.length > 0) {
          return withAllChecks(
            inquiries(
              referents.map(
                (concept) =>
                  [
                    concept.slot,
                    entryOf({ slot: concept.slot, value: concept.value }, attribute, question.radiation),
                  ] as const,
              ),
            ),
            text,
          );
        }
      }
      if (question.smallTalk) return [{ action: "chit-chat" }];
      // A question naming nothing we know ("What brings you in?", "Anything else?"): an open inquiry.
      if (question.isQuestion) return [{ action: "inquire" }];
      return [{ action: smallTalk.classify(analyseText(text, correct)) }];
    },
  };
}

/** Builds a question reader from the training dialogues, as the embedded NLU is built. */
export function buildQuestionReader(training: TrainingData): QuestionReader {
  return questionReaderFrom(buildNluResources(training));
}
