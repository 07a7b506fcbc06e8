import type { Mention } from "./concept-mentions.ts";
import type { Concept, Lexicon } from "./lexicon.ts";
import type { AskedItem, AskedSlot } from "./question-types.ts";

/**
 * The concept a phrase shared by several slots denotes: the one whose slot the doctor is asking
 * about, else the first. With the question's items, a generic concept becomes the specific one asked
 * ("Allergic to any drugs?" — "Yes, to Bactrim": drug allergy). Used for patient answers and doctor
 * questions alike.
 */
export function chooseConcept(
  lexicon: Lexicon | undefined,
  mention: Mention,
  question: { readonly slots: ReadonlySet<AskedSlot>; readonly items?: readonly AskedItem[] },
): Concept {
  const concept = mention.concepts.find((candidate) => question.slots.has(candidate.slot)) ?? mention.concepts[0]!;
  if (!lexicon || !question.items) return concept;
  const asked = lexicon.upgrades.find(
    (rule) => rule.value === concept.value && question.items!.some((item) => item.value === rule.becomes),
  );
  return asked ? { ...concept, value: asked.becomes } : concept;
}
