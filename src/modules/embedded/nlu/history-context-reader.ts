import type { DialogueTurn } from "../../../language/module-interfaces.ts";
import { analyseText, clauseRange } from "./analysed-text.ts";
import { extractLocations } from "./body-locations.ts";
import { conceptMask, findMentions } from "./concept-mentions.ts";
import { isSpecificPain, type Concept, type Lexicon } from "./lexicon.ts";
import { answerPolarity, mentionStatus, type AnswerPolarity } from "./negation.ts";
import type { HistoryContext } from "./history-context.ts";
import { analyseQuestion } from "./question-analysis.ts";
import { EMPTY_QUESTION, type QuestionAnalysis } from "./question-types.ts";
import type { QuestionMemory } from "./question-memory.ts";

/**
 * Reads the {@link HistoryContext} of each patient turn. History turns are summarised context-free and
 * cached by text, so a dialogue replayed turn by turn analyses each utterance once.
 */

interface PatientSummary {
  readonly positive: readonly Concept[];
  readonly negative: readonly Concept[];
  /** {@link conceptKey} of each positive and each negative concept, made once for every later read. */
  readonly positiveKeys: readonly string[];
  readonly negativeKeys: readonly string[];
  readonly polarity: AnswerPolarity | undefined;
  /** Sites of the generic pains the turn reports ("my knee hurts" → knee). */
  readonly painSites: readonly string[];
  /** Every site the turn names (an answer to "where is the pain?"). */
  readonly sites: readonly string[];
}

/** Key of a (slot, value) pair in the known-concept sets. */
export function conceptKey(slot: string, value: string): string {
  return `${slot}\u0000${value}`;
}

/** A bounded memo: cleared when full (history texts repeat within a dialogue, rarely across). */
class Memo<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string, compute: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, value);
    return value;
  }
}

/** What the reader needs: the lexicon, the spelling corrector and the training question memory. */
export interface ContextResources {
  readonly lexicon: Lexicon;
  readonly correct?: (word: string) => string | undefined;
  readonly memory?: QuestionMemory;
}

/** Reads dialogue contexts, memoising the analysis of each history utterance by its text. */
export class HistoryContextReader {
  /** Doctor utterances analysed as if first, keyed by the text itself (the commonest lookup, once per doctor turn of every read). */
  private readonly questionsAlone = new Memo<QuestionAnalysis>(4000);
  /** Doctor utterances after a family question, keyed by both texts. */
  private readonly questions = new Memo<QuestionAnalysis>(4000);
  private readonly patients = new Memo<PatientSummary>(4000);

  constructor(private readonly resources: ContextResources) {}

  /**
   * The analysis of a doctor utterance, given the doctor utterance before it (if any). The one before
   * matters only when it asked about the family (a "how about …?" after it is a family-history question:
   * see `analyseQuestion`); after any other, the utterance is analysed once, as if it came first.
   */
  question(text: string, previousText?: string): QuestionAnalysis {
    const previous = previousText === undefined ? undefined : this.question(previousText);
    if (previous !== undefined && !previous.slots.has("family_history")) return this.question(text);
    const analyse = () => {
      const analysis = analyseQuestion(this.resources, text, previous);
      return this.resources.memory?.complete(analysis, text) ?? analysis;
    };
    // Keyed by the text alone when nothing came before: a key joined from two texts is a new string
    // to hash at every lookup.
    return previousText === undefined
      ? this.questionsAlone.get(text, analyse)
      : this.questions.get(`${previousText}\u0001${text}`, analyse);
  }

  private patient(text: string): PatientSummary {
    return this.patients.get(text, () => {
      const analysed = analyseText(text, this.resources.correct);
      const mentions = findMentions(this.resources.lexicon, analysed);
      const inConcept = conceptMask(analysed.tokens.length, mentions);
      const positive: Concept[] = [];
      const negative: Concept[] = [];
      const painSites: string[] = [];
      for (const mention of mentions) {
        const concept = mention.concepts[0]!;
        if (concept.topic) continue;
        const status = mentionStatus(
          { tokens: analysed.tokens, clauses: analysed.clauses, inConcept },
          mention.start,
          mention.end,
        );
        (status === "negative" ? negative : positive).push(concept);
        // The pain's own clause: "she didnt hit her head but her hip hurts" is a hip pain, not a head one.
        if (status !== "negative" && concept.value === "pain")
          painSites.push(
            ...(concept.location ??
              extractLocations(this.resources.lexicon, analysed, ...clauseRange(analysed, mention.start))),
          );
      }
      const sites = extractLocations(this.resources.lexicon, analysed, 0, analysed.tokens.length);
      return {
        positive,
        negative,
        positiveKeys: positive.map((concept) => conceptKey(concept.slot, concept.value)),
        negativeKeys: negative.map((concept) => conceptKey(concept.slot, concept.value)),
        polarity: answerPolarity(analysed.tokens),
        painSites,
        sites,
      };
    });
  }

  /** The sites a patient turn gives in answer to "where is the pain?", else none. */
  private painLocationAnswer(
    history: readonly DialogueTurn[],
    index: number,
    summary: PatientSummary,
  ): readonly string[] {
    const asking = history[index - 1];
    if (asking?.speaker !== "doctor") return [];
    const question = this.question(asking.text);
    return question.attribute === "location" && question.symptoms.some((concept) => concept.value === "pain")
      ? summary.sites
      : [];
  }

  /**
   * The symptoms a patient turn affirms by a yes to the doctor's question before it ("any shortness of
   * breath?" — "yes"), so that a later "no" to "does anything make the shortness of breath worse?"
   * answers that question and does not deny the breathlessness. None for a question asked in the
   * negative ("you're not breathless?"), whose yes is not plain.
   */
  private affirmedByYes(history: readonly DialogueTurn[], index: number, summary: PatientSummary): readonly Concept[] {
    const asking = history[index - 1];
    if (summary.polarity !== "yes" || asking?.speaker !== "doctor") return [];
    const question = this.question(asking.text);
    return question.inverted ? [] : question.symptoms;
  }

  /** Reads the history before a patient utterance. */
  read(history: readonly DialogueTurn[]): HistoryContext {
    const doctorIndexes = history.flatMap((turn, index) => (turn.speaker === "doctor" ? [index] : []));
    const last = doctorIndexes.at(-1);
    const before = doctorIndexes.at(-2);
    const question =
      last === undefined
        ? EMPTY_QUESTION
        : this.question(history[last]!.text, before === undefined ? undefined : history[before]!.text);

    const knownPositive = new Set<string>();
    const knownNegative = new Set<string>();
    let focus: Concept[] = [];
    let medications: Concept[] = [];
    let specificPain: Concept | undefined;
    let painSites: readonly string[] = [];
    // Walk back: the most recent turn naming present symptoms sets the focus.
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const turn = history[index]!;
      if (turn.speaker === "patient") {
        const summary = this.patient(turn.text);
        for (const key of summary.positiveKeys) knownPositive.add(key);
        for (const concept of this.affirmedByYes(history, index, summary))
          knownPositive.add(conceptKey(concept.slot, concept.value));
        for (const key of summary.negativeKeys) knownNegative.add(key);
        if (focus.length === 0) focus = summary.positive.filter((concept) => concept.slot === "symptom");
        specificPain ??= summary.positive.find((concept) => isSpecificPain(this.resources.lexicon, concept));
        if (medications.length === 0) medications = summary.positive.filter((concept) => concept.slot === "medication");
        if (painSites.length === 0)
          painSites =
            summary.painSites.length > 0 ? summary.painSites : this.painLocationAnswer(history, index, summary);
      } else if (index !== last) {
        const asked = this.question(turn.text).symptoms;
        specificPain ??= asked.find((concept) => isSpecificPain(this.resources.lexicon, concept));
        if (focus.length > 0) continue;
        const answer = history[index + 1];
        const answeredNo = answer?.speaker === "patient" && this.patient(answer.text).polarity === "no";
        if (asked.length > 0 && !answeredNo) focus = [...asked];
      }
    }
    // The current question's own symptoms come first.
    if (question.symptoms.length > 0) focus = [...question.symptoms];
    // "How bad is that pain?" after talking about chest pain: the specific pain.
    if (specificPain && focus.length > 0 && focus.every((concept) => concept.value === "pain" && !concept.location))
      focus = [specificPain];
    return { question, focus, medications, knownPositive, knownNegative, painSites };
  }
}
