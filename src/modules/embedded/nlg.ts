import type { DoctorAction } from "../../cmas/schemas.ts";
import { tokenizeMeditod } from "../../metrics/tokenize-meditod.ts";
import { loadOntologyFile } from "../../ontology/ontology-files.ts";
import type { DialogueTurn, NlgInput, NlgModule } from "../../language/module-interfaces.ts";
import { dueIce } from "../../language/ice-questions.ts";
import { isChoiceClarification, whichQuestion } from "../../language/choice-questions.ts";
import { actionShape, turnShapeKey, type ActionShape } from "../../language/action-signature.ts";
import { clarifiedReply } from "./nlg/clarified-reply.ts";
import { aboutThePatientOf, speaksForPatient } from "./nlg/proxy-wording.ts";
import type { Informant } from "../../language/informant.ts";
import { detailTerm, joinAlternatives, layTerm, spokenValue } from "../../language/lay-terms.ts";
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

const templateFile = loadOntologyFile("nlg-templates.json");
function spokenValues(shape: ActionShape): string[] {
  return shape.values.map((value) => spokenValue(shape.slot, value));
}

/** "a", "a and b", "a, b and c". */
function joinAll(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
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

/** How one value is said when a detail of it is asked ("where is the headache?", not "the headaches"). */
function detailValue(shape: ActionShape): string {
  const value = shape.values[0];
  if (value === undefined) return "";
  return detailTerm(shape.slot, value);
}

/** Whether an action shape asks a detail of its value (a check type: `inquire/symptom/location`). */
const asksDetail = (shape: ActionShape) => shape.key.replace(/:.*$/, "").split("/").length > 2;

function fill(template: string, shape: ActionShape): string {
  const spoken = spokenValues(shape);
  return template
    .replace("{values}", joinAlternatives(spoken))
    .replace("{all}", joinAll(spoken))
    .replace("{value}", asksDetail(shape) ? detailValue(shape) : (spoken[0] ?? ""))
    .replace("{checks}", joinAlternatives(shape.checkValues.map(layTerm)));
}

/**
 * The most specific template for an action shape: `inquire/symptom/onset+values` → `inquire/symptom/onset`
 * → `inquire/symptom` → `inquire`.
 */
function actionTemplate(shape: ActionShape, clean = false): string {
  if (shape.key === "diagnosis" && shape.values.length === 0) return templateFile.templates["diagnosis/none"] ?? "OK.";
  const byValue = `${shape.key}=${shape.values.join("|")}`;
  // Questions only a live history asks have their own words, in clean wording only
  // ("does the pain spread anywhere else?"); the benchmark's transcript wording never meets them.
  const live = clean ? (templateFile.live_templates[byValue] ?? templateFile.live_templates[shape.key]) : undefined;
  if (live) return fill(live, shape);
  const own = shape.values.length > 0 ? templateFile.templates[byValue] : undefined;
  if (own) return fill(own, shape);
  const parts = shape.key.replace(/:.*$/, "").split("/");
  for (let length = parts.length; length > 0; length -= 1) {
    const key = parts.slice(0, length).join("/");
    const template = templateFile.templates[key] ?? templateFile.templates[key.replace(/\+values$/, "")];
    if (template) return fill(template, shape);
  }
  return templateFile.templates.nod_prompt_salutations ?? "OK.";
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Words a list of actions with templates only (no training data). With a diagnosis, tests are the
 * plan to confirm it ("We'll arrange a chest X-ray"), not a question.
 */
export function realiseFromTemplates(actions: readonly DoctorAction[], clean = true, informant?: Informant): string {
  const proxy = clean && speaksForPatient(informant);
  const diagnosing = actions.some((action) => action.action === "diagnosis");
  // The working diagnosis first, then the plan to confirm it.
  const ordered = diagnosing
    ? [...actions].sort((a, b) => Number(b.action === "diagnosis") - Number(a.action === "diagnosis"))
    : actions;
  const plan = templateFile.templates["inquire/medical_test/plan"];
  const parts = ordered.map((action) => {
    const shape = actionShape(action);
    if (diagnosing && shape.key === "inquire/medical_test" && plan) return fill(plan, shape);
    const text = actionTemplate(shape, clean);
    return proxy && action.action === "inquire" ? aboutThePatientOf(text, informant) : text;
  });
  const questions = parts.filter((part) => /^[a-z]/.test(part));
  const statements = parts.filter((part) => !/^[a-z]/.test(part));
  // After a statement ("OK, I see."), the question opens with "And", not a second "OK".
  const opener = statements.length > 0 ? "And" : templateFile.opener;
  const asked = questions.length > 0 ? `${opener} ${questions.join(" And ")}` : "";
  return capitalise([...statements, asked].filter(Boolean).join(" ")) || "OK.";
}

/**
 * Token n-gram counts of orders 1–4, tokenised as the MediTOD NLG scorer tokenises. Each gram is the
 * one before it from the same start with the next token added (not a slice joined again): the same
 * keys, added to each order's map in the same order, without an array sliced and joined for each gram.
 */
function ngramCounts(tokens: readonly string[]): Array<Map<string, number>> {
  const orders = [1, 2, 3, 4].map(() => new Map<string, number>());
  for (let start = 0; start < tokens.length; start += 1) {
    let gram = tokens[start]!;
    for (let order = 1; order <= 4 && start + order <= tokens.length; order += 1) {
      if (order > 1) gram = `${gram} ${tokens[start + order - 1]!}`;
      const counts = orders[order - 1]!;
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return orders;
}

interface Tokenised {
  readonly length: number;
  readonly grams: Array<Map<string, number>>;
}

function tokenised(text: string): Tokenised {
  const tokens = tokenizeMeditod(text);
  return { length: tokens.length, grams: ngramCounts(tokens) };
}

/**
 * Sentence BLEU-4 of a candidate against one reference (add-one smoothed precisions, brevity
 * penalty): the utility of minimum-Bayes-risk selection, so the chosen wording is the one with the
 * highest expected score — long enough not to be penalised for brevity, typical enough to share n-grams.
 */
function sentenceBleu(candidate: Tokenised, reference: Tokenised): number {
  if (candidate.length === 0) return 0;
  let logPrecision = 0;
  for (let order = 0; order < 4; order += 1) {
    const referenceGrams = reference.grams[order]!;
    let matches = 0;
    // `forEach`, not `for (const [gram, count] of …)`: it runs mostly before V8 compiles it, and in the
    // interpreter each destructured entry costs an iterator step and an array (a third of the NLG's time).
    candidate.grams[order]!.forEach((count, gram) => {
      matches += Math.min(count, referenceGrams.get(gram) ?? 0);
    });
    // The n-grams of an order number the positions they start at (what summing their counts gave).
    const total = Math.max(0, candidate.length - order);
    logPrecision += Math.log((matches + 1) / (total + 1)) / 4;
  }
  const brevity = candidate.length >= reference.length ? 1 : Math.exp(1 - reference.length / candidate.length);
  return brevity * Math.exp(logPrecision);
}

/** Our template for one action, with `{0}`, `{1}`, … where its values go. */
function placeholderTemplate(action: DoctorAction): string {
  let index = 0;
  const withMarkers: Record<string, unknown> = { action: action.action };
  for (const [slot, entries] of Object.entries(action)) {
    if (slot === "action" || !Array.isArray(entries)) continue;
    withMarkers[slot] = entries.map((entry) =>
      entry.value === undefined ? entry : { ...entry, value: `{${index++}}` },
    );
  }
  return realiseFromTemplates([withMarkers as DoctorAction], false);
}

/** The topic of a shape key, its action and slot: "inquire/symptom" of "inquire/symptom/onset". */
function topicOf(shapeKey: string): string {
  return shapeKey.split("/").slice(0, 2).join("/");
}

/** Training utterances indexed for reuse and rewording. */
class UtteranceBank {
  private readonly exact = new Map<string, string>();
  private readonly byShape = new Map<string, TrainingUtterance[]>();

  private readonly consensus = new Map<string, string | undefined>();
  /**
   * The tokenised sample of each topic, made on its first consensus and dropped by `add`: every shape of
   * a topic scores its candidates against the same sample, which was listed (a walk over every training
   * utterance) and tokenised again for each of them.
   */
  private readonly topicReferences = new Map<string, ReadonlyArray<{ text: string; tokens: Tokenised }>>();

  /** Utterances of actions on the same slot (`inquire/symptom…`): the sample of how doctors word them. */
  private sameTopic(topic: string): TrainingUtterance[] {
    return [...this.byShape.values()].flat().filter((utterance) => topicOf(utterance.shapeKey) === topic);
  }

  /** The sample of a topic, each utterance delexicalised where it can be, tokenised for the n-gram utility. */
  private references(shapeKey: string): ReadonlyArray<{ text: string; tokens: Tokenised }> {
    const topic = topicOf(shapeKey);
    let references = this.topicReferences.get(topic);
    if (references === undefined) {
      const sample = this.sameTopic(topic).map((utterance) => utterance.delexicalised ?? utterance.text);
      references = sample.map((text) => ({ text, tokens: tokenised(text) }));
      this.topicReferences.set(topic, references);
    }
    return references;
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
    const candidates = (this.byShape.get(shapeKey) ?? [])
      .filter((candidate) => candidate.delexicalised !== null && candidate.valueCount === valueCount)
      .map((candidate) => candidate.delexicalised!);
    if (actions.length === 1) candidates.push(placeholderTemplate(actions[0]!));
    const references = this.references(shapeKey);
    let best: string | undefined;
    let bestScore = -1;
    for (const candidate of new Set(candidates)) {
      const tokens = tokenised(candidate);
      const score = references.reduce(
        (sum, other) => (other.text === candidate ? sum : sum + sentenceBleu(tokens, other.tokens)),
        0,
      );
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
    const entry: TrainingUtterance = {
      text,
      actionsJson,
      shapeKey: turnShapeKey(actions),
      delexicalised: delexicalise(text, values),
      valueCount: values.length,
    };
    const list = this.byShape.get(entry.shapeKey) ?? [];
    list.push(entry);
    this.byShape.set(entry.shapeKey, list);
    this.topicReferences.delete(topicOf(entry.shapeKey));
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
/** An utterance's own acknowledgement ("OK, and", "Alright,"), replaced when the echo acknowledges instead. */
const ACKNOWLEDGEMENT = /^(?:OK|Alright|Uh OK|Oh OK|OK um)[,.]? (?:and |And )?/i;

/**
 * The patient's last answer when it is a short one ("Uh, harsh." → "Harsh"): doctors in these
 * transcripts acknowledge it by saying it back ("Harsh, OK. And …", "No, OK. And …").
 */
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

/** A lone chit-chat that answers no patient question is the doctor's closing: "any questions for me?". */
function isClosingQuestion(input: NlgInput): boolean {
  const last = input.history.at(-1);
  return (
    input.actions.length === 1 &&
    input.actions[0]!.action === "chit-chat" &&
    last?.speaker === "patient" &&
    !last.text.trim().endsWith("?")
  );
}

/**
 * The lone chit-chat's words: the first of ideas, concerns and expectations the conversation has not
 * covered, in its own short question (`language/ice-questions.ts`: the policy asks one exactly when
 * one is due), else the closing "any questions for me?".
 */
function closingQuestion(history: readonly DialogueTurn[]): string {
  const due = dueIce(history);
  const ice = due ? templateFile.templates[`chit-chat/ice:${due}`] : undefined;
  return ice ?? templateFile.templates["chit-chat/closing"] ?? "Do you have any questions for me?";
}

/** The conversation as it stood when the doctor asked its last question (what a repeat request asks again). */
function beforeLastQuestion(history: readonly DialogueTurn[]): readonly DialogueTurn[] {
  const asked = history.findLastIndex((turn) => turn.speaker === "doctor");
  return asked < 0 ? history : history.slice(0, asked);
}

/**
 * The reply to what the patient's last turn asked (clean wording): each request acknowledged,
 * answered within scope or declined in plain words, then the rest of the turn (the next question, or
 * the closing when they asked to stop) without its bare acknowledgement. Undefined without requests.
 */
function requestReply(input: NlgInput): string | undefined {
  const kinds = [...new Set((input.requests ?? []).map((request) => request.kind))];
  if (kinds.length === 0) return undefined;
  const replies = kinds.map((kind) => templateFile.request_replies[kind]);
  const rest = input.actions.filter((action) => Object.keys(action).length > 1 || action.action !== "chit-chat");
  // A lone chit-chat after a request is the policy's next question that has no CMAS action: an ICE question or the closing.
  const body =
    rest.length > 0
      ? realiseFromTemplates(rest, true, input.informant)
      : input.actions.length > 0
        ? closingQuestion(input.history)
        : "";
  return [...replies, body.replace(/^OK, and /, "Now, ")].filter(Boolean).join(" ");
}

/** A lone open question (a bare `inquire`) right after the opening: the policy's invitation to tell the complaint. */
function invitation(input: NlgInput): string | undefined {
  const [only] = input.actions;
  if (input.actions.length !== 1 || only!.action !== "inquire" || Object.keys(only!).length !== 1) return undefined;
  const asked = input.history.filter((turn) => turn.speaker === "doctor").length;
  return asked === 1 ? templateFile.templates["inquire/invite"] : undefined;
}

/**
 * "Which have you had: fevers or weight loss, or both?" after a yes that named none of the findings
 * the question offered (`language/choice-questions.ts`: the policy asks it exactly then), in the words
 * of a question about the patient when a relative speaks. Undefined otherwise.
 */
function whichReply(input: NlgInput): string | undefined {
  const shapes = input.actions.map(actionShape);
  // Plain questions of presence only: a check ("when did the fever start?") is no choice of findings.
  if (shapes.some((shape) => shape.slot === undefined || shape.key !== `inquire/${shape.slot}`)) return undefined;
  const asked = shapes.flatMap((shape) => shape.values.map((value) => ({ slot: shape.slot!, value })));
  if (!isChoiceClarification(input.history, asked)) return undefined;
  const question = whichQuestion(asked);
  return speaksForPatient(input.informant) ? aboutThePatientOf(question, input.informant) : question;
}

/** The opening question asked again, for a patient who asked what it meant. */
function openingAgain(): string {
  return templateFile.templates["chit-chat/opening-again"] ?? "Of course. What brought you here today?";
}

export function buildEmbeddedNlg(training: TrainingData, wording: NlgWording = "transcript"): NlgModule {
  const turns = new UtteranceBank();
  for (const dialogue of training.dialogues) {
    dialogue.utterances.forEach((utterance, turn) => {
      if (utterance.speaker === "doctor" && turn !== 0) turns.add(utterance.actions, utterance.text);
    });
  }

  const realise = (actions: readonly DoctorAction[], informant?: Informant): string => {
    if (actions.length === 0) return "OK.";
    if (wording === "clean") return realiseFromTemplates(actions, true, informant);
    const whole = turns.find(actions);
    if (whole) return whole;
    if (actions.length === 1) return realiseFromTemplates(actions, false);
    // Word each action on its own (from training where possible) and join them.
    return actions
      .map(
        (action, index) =>
          turns.find([action]) ??
          (index === 0 ? realiseFromTemplates([action], false) : capitalise(actionTemplate(actionShape(action)))),
      )
      .join(" ");
  };

  return {
    id: wording === "clean" ? "embedded:clean" : "embedded",
    async realise(input: NlgInput) {
      const started = performance.now();
      const clarified =
        wording === "clean"
          ? clarifiedReply(input, realiseFromTemplates, {
              closing: closingQuestion(beforeLastQuestion(input.history)),
              openingAgain: openingAgain(),
            })
          : undefined;
      const replied = wording === "clean" ? requestReply(input) : undefined;
      const body =
        replied ??
        clarified ??
        (wording === "clean" ? (invitation(input) ?? whichReply(input)) : undefined) ??
        (isClosingQuestion(input) && wording === "clean"
          ? closingQuestion(input.history)
          : realise(input.actions, input.informant));
      const echo = wording === "transcript" && templateFile.echoShortAnswers ? shortAnswerEcho(input.history) : null;
      const text = echo ? `${echo}, OK. ${body.replace(ACKNOWLEDGEMENT, "And ")}` : body;
      return { text, latencyMs: performance.now() - started };
    },
  };
}
