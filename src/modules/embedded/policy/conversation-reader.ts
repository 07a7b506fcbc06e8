import { mayMatch, prefilterText } from "./cue-prefilter.ts";
import type { DialogueTurn } from "../../../language/module-interfaces.ts";
import type { HistoryPlan, PlanItem } from "../../../language/history-plan.ts";

/**
 * Reads the conversation text: which plan items the doctor has already asked about (so they are not
 * asked again even when the state did not record the answer), which attributes each question was
 * about, what the doctor asked last (the planner's cursor), and the closing moves. Matching is by the
 * plan's cues; results per utterance text are memoised, since every call re-reads the same history.
 */

/** What one doctor utterance asks about. */
export interface DoctorReading {
  /** Plan items recognised, in order of their first cue in the text. */
  readonly items: readonly string[];
  /** `item|value` for each value of a recognised item that the question named. */
  readonly values: readonly string[];
  /** Check types recognised (onset, severity, …). */
  readonly checks: readonly string[];
  /** Symptom values mentioned, through item or complaint cues. */
  readonly symptoms: readonly string[];
  /** Complaint companions no plan item asks (photophobia for a headache) that the question named, by their `asked_cues`. */
  readonly companions: readonly string[];
  readonly closingQuestion: boolean;
  readonly explanation: boolean;
  readonly words: number;
}

export interface DoctorTurnReading extends DoctorReading {
  /** Index in the history. */
  readonly index: number;
  /** The doctor's words, lower-cased. */
  readonly text: string;
  /**
   * For a question that names no item but asks an attribute ("when did you notice that?"): the
   * symptom items the patient had just reported (positive in the state), which the question is about.
   */
  readonly topics: readonly string[];
}

export interface ConversationReading {
  readonly doctor: readonly DoctorTurnReading[];
  /** Items recognised in any doctor utterance after the opening. */
  readonly askedItems: ReadonlySet<string>;
  /** `item|value` asked in any doctor utterance after the opening. */
  readonly askedValues: ReadonlySet<string>;
  /** The first patient utterance: the presenting complaint in the patient's words. */
  readonly opening: string | undefined;
  /** Symptom values the opening mentions (by the cues of plan items and complaint templates). */
  readonly openingSymptoms: ReadonlySet<string>;
  readonly lastDoctor: DoctorTurnReading | undefined;
  readonly lastDoctorText: string | undefined;
  readonly lastPatient: string | undefined;
  /** Whether the history ends with a patient turn (the usual case: the doctor answers it). */
  readonly patientSpokeLast: boolean;
}

/** Words in a text, as the plan's length thresholds count them. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/** Looks like a question: ends with `?` or contains an interrogative or an "any …" prompt (transcripts often drop the `?`). */
export function isQuestion(text: string): boolean {
  return (
    /\?\s*$/.test(text.trim()) || /\b(any|have you|do you|did you|are you|is there|how|what|when|where)\b/i.test(text)
  );
}

/** Whether a patient turn asks the doctor something (ends with a question mark). */
export function asksDoctor(text: string): boolean {
  return /\?\s*$/.test(text.trim());
}

const MEMO_LIMIT = 20_000;

export class ConversationReader {
  private readonly memo = new Map<string, DoctorReading>();
  private readonly mentions = new Map<string, readonly PlanItem[]>();

  constructor(private readonly plan: HistoryPlan) {}

  /** Reads one doctor utterance (memoised by text). */
  readDoctor(text: string): DoctorReading {
    const known = this.memo.get(text);
    if (known) return known;
    const found: Array<{ id: string; at: number }> = [];
    const values: string[] = [];
    const symptoms = new Set<string>();
    const prepared = prefilterText(text);
    for (const item of this.plan.items) {
      const at = firstMatch(item.cues, text, prepared);
      if (at < 0) continue;
      found.push({ id: item.id, at });
      for (const value of item.values) {
        const cues = item.valueCues.get(value);
        if (!cues || firstMatch(cues, text, prepared) >= 0) values.push(`${item.id}|${value}`);
      }
      if (item.slot === "symptom") for (const value of [...item.values, ...item.aliases]) symptoms.add(value);
    }
    for (const complaint of this.plan.complaints) {
      if (firstMatch(complaint.cues, text, prepared) >= 0) for (const value of complaint.symptoms) symptoms.add(value);
    }
    const companions = [...this.plan.companionCues]
      .filter(([, cues]) => firstMatch(cues, text, prepared) >= 0)
      .map(([value]) => value);
    const checks = [...this.plan.checkCues]
      .filter(([, cues]) => firstMatch(cues, text, prepared) >= 0)
      .map(([type]) => type);
    const words = wordCount(text);
    const reading: DoctorReading = {
      items: found.sort((a, b) => a.at - b.at).map((match) => match.id),
      values,
      checks,
      symptoms: [...symptoms],
      companions,
      closingQuestion: this.plan.closing.question.some((cue) => cue.test(text)),
      explanation:
        words >= this.plan.file.closing.explanation_min_words &&
        this.plan.closing.explanation.some((cue) => cue.test(text)),
      words,
    };
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(text, reading);
    return reading;
  }

  /** Symptom values a text mentions, by item and complaint cues. */
  private symptomsMentioned(text: string): Set<string> {
    const values = new Set(this.symptomItems(text).flatMap((item) => [...item.values, ...item.aliases]));
    for (const complaint of this.plan.complaints)
      if (complaint.cues.some((cue) => cue.test(text))) for (const value of complaint.symptoms) values.add(value);
    return values;
  }

  /** Symptom items a (patient) text mentions, whatever it says about them (memoised by text). */
  symptomItems(text: string): readonly PlanItem[] {
    const known = this.mentions.get(text);
    if (known) return known;
    const prepared = prefilterText(text);
    const found = this.plan.items.filter(
      (item) => item.slot === "symptom" && item.cues.some((cue) => mayMatch(cue, prepared) && cue.test(text)),
    );
    if (this.mentions.size >= MEMO_LIMIT) this.mentions.clear();
    this.mentions.set(text, found);
    return found;
  }

  /**
   * Reads a whole history. The opening doctor turn ("what brings you in?") asks no plan item.
   * `reported` tells which symptom values the patient has reported (for the topics of attribute questions).
   */
  read(history: readonly DialogueTurn[], reported: (value: string) => boolean = () => true): ConversationReading {
    const doctor: DoctorTurnReading[] = [];
    const askedItems = new Set<string>();
    const askedValues = new Set<string>();
    let opening: string | undefined;
    let lastPatient: string | undefined;
    let lastDoctorText: string | undefined;
    history.forEach((turn, index) => {
      if (turn.speaker === "patient") {
        opening ??= turn.text;
        lastPatient = turn.text;
        return;
      }
      lastDoctorText = turn.text;
      if (opening === undefined) return;
      const own = this.readDoctor(turn.text);
      const topics =
        own.items.length === 0 && own.checks.length > 0 && lastPatient !== undefined
          ? this.symptomItems(lastPatient)
              .filter((item) => [...item.values, ...item.aliases].some(reported))
              .map((item) => item.id)
          : [];
      const symptoms =
        topics.length > 0
          ? [...new Set([...own.symptoms, ...topics.flatMap((id) => this.plan.itemsById.get(id)!.values)])]
          : own.symptoms;
      const reading: DoctorTurnReading = { ...own, symptoms, index, topics, text: turn.text.toLowerCase() };
      doctor.push(reading);
      for (const id of reading.items) askedItems.add(id);
      for (const key of reading.values) askedValues.add(key);
    });
    return {
      doctor,
      askedItems,
      openingSymptoms: opening === undefined ? new Set() : this.symptomsMentioned(opening),
      askedValues,
      opening,
      lastDoctor: doctor.at(-1),
      lastDoctorText,
      lastPatient,
      patientSpokeLast: history.at(-1)?.speaker === "patient",
    };
  }
}

function firstMatch(cues: readonly RegExp[], text: string, prepared: string | null = prefilterText(text)): number {
  let best = -1;
  for (const cue of cues) {
    if (!mayMatch(cue, prepared)) continue;
    const match = cue.exec(text);
    if (match && (best < 0 || match.index < best)) best = match.index;
  }
  return best;
}
