import { DialogueStateTracker } from "../../../cmas/dialogue-state.ts";
import type { DialogueState, NluFrame } from "../../../cmas/schemas.ts";
import { clinicalNote, type Historian, type PatientVoice } from "../../../clinical/clinical-note.ts";
import { visitNote, visitNoteText, type VisitNote } from "../../../clinical/visit-note.ts";
import { historyEndTurn, readDoctorStatements } from "../../../language/doctor-statements.ts";
import { patientAccount } from "../../../language/patient-account.ts";
import type {
  CallOptions,
  DialogueTurn,
  NluModule,
  NoteModule,
  NoteRequest,
  NoteResult,
} from "../../../language/module-interfaces.ts";
import { questionFocus } from "../../../language/question-focus.ts";
import { asSentence, spokenStatements } from "../../../language/spoken-text.ts";
import { parseVisitTranscript, type VisitTurn } from "../../../language/visit-transcript.ts";

/**
 * The embedded engine's visit note: it reads a whole recorded visit turn by turn as the chat does —
 * each patient answer through the NLU, with the doctor's question as its context, into the tracked
 * CMAS state — and writes the history sections from that state with the chat's note writer, and the
 * examination, results, assessment and plan from the doctor's own statements
 * (`language/doctor-statements.ts`).
 *
 * Two readings a recorded visit needs beyond a chat: the context of an answer is the question the
 * doctor's turn ends with (`language/question-focus.ts`), not the whole turn (a "no" after the
 * examination findings and a question denies what was asked, not the findings); and the doctor's
 * summary of who the patient is ("martha is a 50-year-old female with a past medical history
 * significant for…"), when they dictate one, is read into the state as a statement of the history.
 */

/** What the history of a visit gives the note: the tracked state and what the chat's note takes beside it. */
export interface VisitHistoryReading {
  readonly state: DialogueState;
  readonly presenting: readonly string[];
  readonly historian: Historian;
  readonly questionsAndConcerns: readonly PatientVoice[];
}

/**
 * The doctor's summary of who the patient is: age and sex. Example: "martha is a 50-year-old female
 * with a past medical history significant for…" → 50, female.
 */
const IDENTIFICATION = /\bis an? (\d{1,3})[- ]year[- ]old (female|male|woman|man|girl|boy|lady|gentleman)\b/;

const SEX_WORDS: Readonly<Record<string, string>> = {
  female: "female",
  woman: "female",
  girl: "female",
  lady: "female",
  male: "male",
  man: "male",
  boy: "male",
  gentleman: "male",
};

/** Positive symptom values in frames (the presenting complaint is the first patient turn's that names any). */
function positiveSymptoms(frames: readonly NluFrame[]): string[] {
  const values = frames.flatMap((frame) => frame.slots?.positive_symptom ?? []).map((entry) => entry.value);
  return [...new Set(values.filter((value): value is string => typeof value === "string"))];
}

/** The doctor's identification of the patient as frames: their age and sex, and the history the NLU reads in it. */
async function identificationFrames(nlu: NluModule, turns: readonly VisitTurn[]): Promise<NluFrame[]> {
  for (const turn of turns) {
    if (turn.speaker !== "doctor") continue;
    const statement = spokenStatements(turn.text).find((text) => IDENTIFICATION.test(text));
    if (!statement) continue;
    const [, age, sex] = IDENTIFICATION.exec(statement)!;
    const { frames } = await nlu.understand({ history: [], utterance: statement });
    return [
      { intent: "inform", slots: { basic_information: [{ age: age!, sex: SEX_WORDS[sex!]! }] } },
      ...(frames ?? []),
    ];
  }
  return [];
}

/**
 * A patient's question about their health: it opens with a question word or an auxiliary and ends
 * asking. Example: "so , do you think that my weight gain could have been the birth control ?".
 */
const PATIENT_QUESTION =
  /^(?:what|how|why|when|where|which|who|is|are|was|were|do|does|did|can|could|will|would|should|shall|have|has|am)\b.*\?$/;

/** Small talk that asks: "how are you?", "how about you?", "you know?". */
const SMALL_TALK_QUESTION = /\b(?:how (?:are|about) you|how's it going|you know|right|okay|ok)\s*\?$/;

/** The fewest words a patient's question has to be listed ("what?" and "really?" are talk). */
const QUESTION_WORDS = 4;

/** Whether a cleaned sentence of the patient's is a question about their health. */
function isPatientQuestion(text: string): boolean {
  return PATIENT_QUESTION.test(text) && !SMALL_TALK_QUESTION.test(text) && text.split(/\s+/).length >= QUESTION_WORDS;
}

/**
 * A patient's turn as the history reads it: their questions apart (listed in the note, never read as
 * history: "do you think I will need surgery?" is no past surgery), and what they stated.
 */
function splitQuestions(turn: VisitTurn): { questions: PatientVoice[]; stated: string } {
  const questions: PatientVoice[] = [];
  const stated: string[] = [];
  for (const sentence of turn.text.split(/(?<=[.?!])\s+/)) {
    const cleaned = spokenStatements(sentence).join(" ");
    if (isPatientQuestion(cleaned)) questions.push({ kind: "question", text: asSentence(cleaned) });
    else stated.push(sentence);
  }
  return { questions, stated: stated.join(" ").trim() };
}

/**
 * A question that asks whether the patient has something, so that a "no" to it denies what it names.
 * Example: "any numbness or tingling in that right foot", "have you noticed any blood in your stool",
 * "do you have any allergies" — not "have you been able to play since you hurt your ankle".
 */
const ASKS_WHETHER =
  /\b(?:any|have you (?:had|noticed|experienced|felt|got|been having|ever had)|do you (?:have|get|feel|smoke|drink)|are you (?:having|taking|on)|did you (?:have|notice|feel|get)|is there|has there been|does (?:it|that|this|the \w+) (?:hurt|radiate|get|go|spread))\b/;

/**
 * The frames a patient's answer gives the note, each denial explicit: a negative entry is kept when the
 * patient's own words deny it (the NLU finds it reading the answer alone) or when the answer is a no to
 * a question that asked whether they have it and that they had not reported already. A no to anything
 * else (a question about what they can do, a remark, a follow-up about a symptom they reported) denies
 * nothing.
 */
function explicitDenials(
  inContext: readonly NluFrame[],
  alone: readonly NluFrame[],
  focus: string,
  reported: ReadonlySet<string>,
): NluFrame[] {
  const said = new Set(
    alone.flatMap((frame) =>
      Object.entries(frame.slots ?? {}).flatMap(([slot, entries]) =>
        entries.map((entry) => `${slot}:${String(entry.value)}`),
      ),
    ),
  );
  const asked = ASKS_WHETHER.test(focus);
  // A no to a question about something the patient already reported ("does the pain extend anywhere?"
  // after "my wrist started to hurt") says no of the question, not of the symptom.
  const denied = (slot: string, value: string) =>
    said.has(`${slot}:${value}`) || (asked && !reported.has(`${slot.replace(/^negative_/, "positive_")}:${value}`));
  return inContext.map((frame) => {
    if (!frame.slots) return frame;
    const slots = Object.fromEntries(
      Object.entries(frame.slots)
        .map(
          ([slot, entries]) =>
            [
              slot,
              slot.startsWith("negative_") ? entries.filter((entry) => denied(slot, String(entry.value))) : entries,
            ] as const,
        )
        .filter(([, entries]) => entries.length > 0),
    );
    return { ...frame, slots };
  });
}

/** Every value the state holds as reported (a positive status), as `slot:value`. */
function reportedIn(state: DialogueState): Set<string> {
  return new Set(
    Object.entries(state)
      .filter(([slot]) => slot.startsWith("positive_"))
      .flatMap(([slot, entries]) => entries.map((entry) => `${slot}:${String(entry.value)}`)),
  );
}

/** Reads the history of a visit: every patient answer through the NLU, in the context of the doctor's question. */
export async function readVisitHistory(
  nlu: NluModule,
  turns: readonly VisitTurn[],
  options: CallOptions = {},
): Promise<VisitHistoryReading> {
  const tracker = new DialogueStateTracker(undefined, "value-and-site");
  const identification = await identificationFrames(nlu, turns);
  tracker.update(identification);
  let presenting = positiveSymptoms(identification);
  const questions: PatientVoice[] = [];
  const history: DialogueTurn[] = [];
  for (const turn of turns) {
    if (turn.speaker === "doctor") {
      history.push({ speaker: "doctor", text: questionFocus(turn.text) });
      continue;
    }
    const { questions: asked, stated } = splitQuestions(turn);
    questions.push(...asked);
    if (stated) {
      const inContext = (await nlu.understand({ history, utterance: stated }, options)).frames ?? [];
      const alone = (await nlu.understand({ history: [], utterance: stated }, options)).frames ?? [];
      const frames = explicitDenials(
        inContext,
        alone,
        history[history.length - 1]?.text ?? "",
        reportedIn(tracker.state()),
      );
      tracker.update(frames);
      if (presenting.length === 0) presenting = positiveSymptoms(frames);
    }
    history.push({ speaker: "patient", text: turn.text });
  }
  const guests = turns.filter((turn) => turn.guest).length;
  const patients = turns.filter((turn) => turn.speaker === "patient" && !turn.guest).length;
  return {
    state: tracker.state(),
    presenting,
    historian: guests > patients ? { informant: "proxy", relation: null } : { informant: "patient", relation: null },
    questionsAndConcerns: questions,
  };
}

/** The visit note of a transcript: the history read through `nlu`, the rest from the doctor's statements. */
export async function readVisitNote(nlu: NluModule, transcript: string, options: CallOptions = {}): Promise<VisitNote> {
  const turns = parseVisitTranscript(transcript);
  const history = await readVisitHistory(nlu, turns, options);
  // The visit note names values itself (note-names.ts) and places them in body systems by their data names.
  const note = clinicalNote({ ...history, dataLabels: true });
  const sex = note.patient.sex === "male" || note.patient.sex === "female" ? note.patient.sex : null;
  return visitNote(note, readDoctorStatements(turns), patientAccount(turns, historyEndTurn(turns), sex));
}

/** The embedded engine's note module for whole recorded visits (ACI-Bench): the visit note as text. */
export class VisitNoteWriter implements NoteModule {
  readonly id = "embedded:visit-note";

  constructor(private readonly nlu: NluModule) {}

  async write(request: NoteRequest, options: CallOptions = {}): Promise<NoteResult> {
    const started = performance.now();
    const note = await readVisitNote(this.nlu, request.input, options);
    return { text: visitNoteText(note), latencyMs: performance.now() - started };
  }
}
