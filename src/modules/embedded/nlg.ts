import { readFileSync } from "node:fs";
import type { DoctorAction } from "../../cmas/schemas.ts";
import type { NlgInput, NlgModule } from "../types.ts";
import { actionShape, turnShapeKey, type ActionShape } from "./nlg/action-signature.ts";
import type { TrainingData } from "./training-data.ts";

/**
 * The embedded NLG: realises doctor actions as an utterance.
 * 1. A training utterance whose actions are exactly these is reused as it is.
 * 2. Otherwise a training utterance of the same shape (same actions, slots and check types) is
 *    reworded by swapping the values it mentions for the new ones ("have you had any fevers?" →
 *    "have you had any headaches?").
 * 3. Otherwise each action is worded from the ontology's templates (`ontology/nlg-templates.json`),
 *    in the doctor's conversational style, and the parts are joined.
 * Values are spoken in lay terms (`ontology/lay-terms.json`).
 */

interface TemplateFile {
  opener: string;
  templates: Record<string, string>;
}
const templateFile = JSON.parse(readFileSync(new URL("../../../ontology/nlg-templates.json", import.meta.url), "utf8")) as TemplateFile;
const layTerms = (JSON.parse(readFileSync(new URL("../../../ontology/lay-terms.json", import.meta.url), "utf8")) as { terms: Record<string, string> }).terms;

/** How a canonical value is said to a patient. */
export function layTerm(value: string): string {
  return layTerms[value] ?? value;
}

/** How a value of a slot is said; placeholders such as `other` or `all` are worded by the slot. */
export function spokenValue(slot: string | undefined, value: string): string {
  return layTerms[`${slot}:${value}`] ?? layTerm(value);
}

function spokenValues(shape: ActionShape): string[] {
  return shape.values.map((value) => spokenValue(shape.slot, value));
}

/** "a", "a or b", "a, b or c". */
export function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

interface TrainingUtterance {
  text: string;
  actionsJson: string;
  shapeKey: string;
  /** The text with each mentioned value's lay term replaced by `{0}`, `{1}`, … (null when a value is not found). */
  delexicalised: string | null;
  valueCount: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function delexicalise(text: string, values: readonly string[]): string | null {
  let template = text;
  for (const [index, value] of values.entries()) {
    const spoken = layTerm(value);
    const pattern = new RegExp(`\\b${escapeRegExp(spoken)}\\b`, "i");
    if (!pattern.test(template)) return null;
    template = template.replace(pattern, `{${index}}`);
  }
  return template;
}

function turnValues(actions: readonly DoctorAction[]): string[] {
  return actions.flatMap((action) => actionShape(action).values);
}

function fill(template: string, shape: ActionShape): string {
  const spoken = spokenValues(shape);
  return template
    .replace("{values}", joinAlternatives(spoken))
    .replace("{value}", spoken[0] ?? "")
    .replace("{checks}", joinAlternatives(shape.checkValues));
}

/** The most specific template for an action shape: `inquire/symptom/onset` → `inquire/symptom` → `inquire`. */
function templateFor(shape: ActionShape): string {
  const parts = shape.key.replace(/:.*$/, "").split("/");
  for (let length = parts.length; length > 0; length -= 1) {
    const template = templateFile.templates[parts.slice(0, length).join("/")];
    if (template) return fill(template, shape);
  }
  return templateFile.templates.nod_prompt_salutations ?? "OK.";
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Words a list of actions with templates only (no training data). */
export function realiseFromTemplates(actions: readonly DoctorAction[]): string {
  const parts = actions.map((action) => templateFor(actionShape(action)));
  const questions = parts.filter((part) => /^[a-z]/.test(part));
  const statements = parts.filter((part) => !/^[a-z]/.test(part));
  const asked = questions.length > 0 ? `${templateFile.opener} ${questions.join(" And ")}` : "";
  return capitalise([...statements, asked].filter(Boolean).join(" ")) || "OK.";
}

function ngrams(text: string): Map<string, number> {
  const tokens = text.toLowerCase().replace(/[^a-z0-9{}' ]+/g, " $& ").split(/\s+/).filter(Boolean);
  const counts = new Map<string, number>();
  for (let order = 1; order <= 4; order += 1) {
    for (let start = 0; start + order <= tokens.length; start += 1) {
      const gram = tokens.slice(start, start + order).join(" ");
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return counts;
}

/** Clipped 1–4-gram overlap of two texts as an F-measure. */
function ngramAgreement(a: string, b: string): number {
  const left = ngrams(a);
  const right = ngrams(b);
  let shared = 0;
  let leftTotal = 0;
  let rightTotal = 0;
  for (const [gram, count] of left) {
    leftTotal += count;
    shared += Math.min(count, right.get(gram) ?? 0);
  }
  for (const count of right.values()) rightTotal += count;
  // Recall-leaning (F2): corpus BLEU punishes short output harder than wordy output.
  const precision = leftTotal > 0 ? shared / leftTotal : 0;
  const recall = rightTotal > 0 ? shared / rightTotal : 0;
  return precision + recall > 0 ? (5 * precision * recall) / (4 * precision + recall) : 0;
}

/** Our template for one action, with `{0}`, `{1}`, … where its values go. */
function placeholderTemplate(action: DoctorAction): string {
  let index = 0;
  const withMarkers: Record<string, unknown> = { action: action.action };
  for (const [slot, entries] of Object.entries(action)) {
    if (slot === "action" || !Array.isArray(entries)) continue;
    withMarkers[slot] = entries.map((entry) => (entry.value === undefined ? entry : { ...entry, value: `{${index++}}` }));
  }
  return realiseFromTemplates([withMarkers as DoctorAction]);
}

/** Training utterances indexed for reuse and rewording. */
class UtteranceBank {
  private readonly exact = new Map<string, string>();
  private readonly byShape = new Map<string, TrainingUtterance[]>();

  private readonly consensus = new Map<string, string | undefined>();

  /** Utterances of actions on the same slot (`inquire/symptom…`): the sample of how doctors word them. */
  private sameTopic(shapeKey: string): TrainingUtterance[] {
    const topic = shapeKey.split("/").slice(0, 2).join("/");
    return [...this.byShape.values()].flat().filter((utterance) => utterance.shapeKey.split("/").slice(0, 2).join("/") === topic);
  }

  /**
   * The wording of a shape that agrees most with how training doctors word that topic (minimum-Bayes-
   * risk selection with an n-gram overlap utility), among the training utterances of that shape and,
   * for a single action, our own template: the most typical wording rather than the first one seen.
   */
  private consensusTemplate(actions: readonly DoctorAction[]): string | undefined {
    const shapeKey = turnShapeKey(actions);
    const valueCount = turnValues(actions).length;
    const key = `${shapeKey}#${valueCount}`;
    if (this.consensus.has(key)) return this.consensus.get(key);
    const candidates = (this.byShape.get(shapeKey) ?? []).filter((candidate) => candidate.delexicalised !== null && candidate.valueCount === valueCount).map((candidate) => candidate.delexicalised!);
    if (actions.length === 1) candidates.push(placeholderTemplate(actions[0]!));
    const sample = this.sameTopic(shapeKey).map((utterance) => utterance.delexicalised ?? utterance.text);
    let best: string | undefined;
    let bestScore = -1;
    for (const candidate of new Set(candidates)) {
      const score = sample.reduce((sum, other) => (other === candidate ? sum : sum + ngramAgreement(candidate, other)), 0);
      if (score > bestScore) {
        bestScore = score;
        best = candidate;
      }
    }
    this.consensus.set(key, best);
    return best;
  }

  add(actions: readonly DoctorAction[], text: string): void {
    const actionsJson = JSON.stringify(actions);
    if (!this.exact.has(actionsJson)) this.exact.set(actionsJson, text);
    const values = turnValues(actions);
    const entry: TrainingUtterance = { text, actionsJson, shapeKey: turnShapeKey(actions), delexicalised: delexicalise(text, values), valueCount: values.length };
    const list = this.byShape.get(entry.shapeKey) ?? [];
    list.push(entry);
    this.byShape.set(entry.shapeKey, list);
  }

  /** The training utterance for exactly these actions, or one of the same shape with the values swapped. */
  find(actions: readonly DoctorAction[]): string | undefined {
    const reused = this.exact.get(JSON.stringify(actions));
    if (reused) return reused;
    const spoken = actions.flatMap((action) => spokenValues(actionShape(action)));
    const template = this.consensusTemplate(actions);
    return template?.replace(/\{(\d+)\}/g, (_match, index: string) => spoken[Number(index)]!);
  }
}

/**
 * How the embedded NLG words actions: `transcript` sounds like the training doctors, disfluencies
 * included (what the MediTOD NLG metrics reward); `clean` uses only our templates (what a chat user
 * wants to read).
 */
export type NlgWording = "transcript" | "clean";

const FILLERS = new Set(["uh", "um", "oh", "ah", "so", "well", "yeah", "yes", "yep", "hmm", "mm"]);

/** The patient's last answer when it is a short one ("Uh, harsh." → "Harsh"), as doctors echo it back. */
function shortAnswerEcho(history: NlgInput["history"]): string | null {
  const last = history.at(-1);
  if (!last || last.speaker !== "patient") return null;
  const clause = last.text.split(/[.?!]/)[0]!;
  const words = clause.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  while (words.length > 0 && FILLERS.has(words[0]!)) words.shift();
  if (words.length === 0 || words.length > 3) return null;
  const echo = words.join(" ");
  return echo.charAt(0).toUpperCase() + echo.slice(1);
}

export function buildEmbeddedNlg(training: TrainingData, wording: NlgWording = "transcript"): NlgModule {
  const turns = new UtteranceBank();
  for (const dialogue of training.dialogues) {
    dialogue.utterances.forEach((utterance, turn) => {
      if (utterance.speaker === "doctor" && turn !== 0) turns.add(utterance.actions, utterance.text);
    });
  }

  const realise = (actions: readonly DoctorAction[]): string => {
    if (actions.length === 0) return "OK.";
    if (wording === "clean") return realiseFromTemplates(actions);
    const whole = turns.find(actions);
    if (whole) return whole;
    if (actions.length === 1) return realiseFromTemplates(actions);
    // Word each action on its own (from training where possible) and join them.
    return actions.map((action, index) => turns.find([action]) ?? (index === 0 ? realiseFromTemplates([action]) : capitalise(templateFor(actionShape(action))))).join(" ");
  };

  return {
    id: wording === "clean" ? "embedded:clean" : "embedded",
    async realise(input: NlgInput) {
      const started = performance.now();
      const body = realise(input.actions);
      const echo = wording === "transcript" && process.env.ECHO ? shortAnswerEcho(input.history) : null;
      const text = echo ? `${echo}, OK. ${body.replace(/^(OK|Alright|Uh OK|Oh OK|OK um)[,.]? (and |And )?/i, "And ")}` : body;
      return { text, latencyMs: performance.now() - started };
    },
  };
}
