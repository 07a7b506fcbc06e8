import type { DoctorAction } from "../../../cmas/schemas.ts";
import { analyseText } from "./analysed-text.ts";
import { isAskedAttribute } from "./attributes/registry.ts";
import { FUNCTION_WORDS } from "./word-lists.ts";
import { isMedicalSlot } from "./lexicon.ts";
import { isSocialSlot, type AskedAttribute, type AskedItem, type QuestionAnalysis } from "./question-types.ts";

/**
 * Doctor questions of the training dialogues with what they asked (their `inquire` actions). When
 * the lexicon finds nothing in a question, the most similar training question (content-word Jaccard)
 * lends its slots and values: "how has your energy been?" → the value the annotators used.
 */

const STOPWORDS = FUNCTION_WORDS;

interface Exemplar {
  readonly keys: ReadonlySet<string>;
  readonly items: readonly AskedItem[];
  readonly attribute?: AskedAttribute;
}

/**
 * Check types a training question lends as its attribute: every asked attribute of the registry but
 * the age, which the social details read whatever the question.
 */
function lentAttribute(type: string | undefined): AskedAttribute | undefined {
  return type !== undefined && type !== "age" && isAskedAttribute(type) ? type : undefined;
}

function contentKeys(text: string): Set<string> {
  return new Set(
    analyseText(text)
      .tokens.filter((token) => token.kind === "word" && !STOPWORDS.has(token.text))
      .map((token) => token.key),
  );
}

/** Jaccard similarity, zero unless at least two content words are shared (one is too weak a clue). */
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const key of a) if (b.has(key)) shared += 1;
  const union = a.size + b.size - shared;
  return shared < 2 || union === 0 ? 0 : shared / union;
}

/** Nearest-neighbour memory of training questions. */
export class QuestionMemory {
  private readonly exemplars: Exemplar[] = [];

  constructor(private readonly threshold = 0.5) {}

  get size(): number {
    return this.exemplars.length;
  }

  /** Remembers a training question and its `inquire` actions. */
  add(text: string, actions: readonly DoctorAction[]): void {
    const items: AskedItem[] = [];
    let attribute: AskedAttribute | undefined;
    for (const action of actions) {
      if (action.action !== "inquire") continue;
      for (const [slot, entries] of Object.entries(action)) {
        if (slot === "action" || typeof entries === "string") continue;
        if (!isMedicalSlot(slot) && !isSocialSlot(slot)) continue;
        for (const entry of entries) {
          const value = isMedicalSlot(slot) ? entry.value : undefined;
          if (isMedicalSlot(slot) && (!value || value === "all")) continue;
          items.push({ slot: slot, ...(value ? { value } : {}) });
          const type = entry.checks?.[0]?.type;
          attribute = lentAttribute(type) ?? attribute;
        }
      }
    }
    const keys = contentKeys(text);
    if (items.length > 0 && keys.size > 0) this.exemplars.push({ keys, items, ...(attribute ? { attribute } : {}) });
  }

  /** The analysis, completed from the nearest training question when it found no items itself. */
  complete(analysis: QuestionAnalysis, text: string): QuestionAnalysis {
    // Questions with an attribute but no value ("when did you notice that?") refer to the focus instead.
    if (
      !analysis.isQuestion ||
      analysis.smallTalk ||
      analysis.items.length > 0 ||
      analysis.attribute ||
      this.exemplars.length === 0
    )
      return analysis;
    const keys = contentKeys(text);
    let best: { score: number; exemplar: Exemplar } | undefined;
    for (const exemplar of this.exemplars) {
      const score = jaccard(keys, exemplar.keys);
      if (!best || score > best.score) best = { score, exemplar };
    }
    if (!best || best.score < this.threshold) return analysis;
    const slots = new Set(analysis.slots);
    for (const item of best.exemplar.items) slots.add(item.slot);
    return {
      ...analysis,
      items: best.exemplar.items,
      slots,
      ...(analysis.attribute === undefined && best.exemplar.attribute ? { attribute: best.exemplar.attribute } : {}),
    };
  }
}
