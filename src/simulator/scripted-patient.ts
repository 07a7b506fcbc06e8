import type { DoctorAction } from "../cmas/schemas.ts";
import { AnamnesisError } from "../foundation/errors.ts";
import type { DialogueTurn } from "../language/module-interfaces.ts";
import type { QuestionReader } from "../language/question-reader.ts";
import { askedItems, FactIndex, type AskedItem } from "./asked-facts.ts";
import { answeredQuestions, scriptLine, type LayScript } from "./lay-script.ts";
import { iceKindsAsked, type IceKind } from "../language/ice-questions.ts";
import type { PatientCase } from "./patient-simulator.ts";

/**
 * A simulated patient that speaks only from its case's lay script: to the opening question it says the
 * script's opening; to a question it says the script's line for each fact asked (`asked-facts.ts`), and
 * a line's marked volunteered facts come with it. It volunteers nothing else, and never speaks in our
 * lexicon's words. Each answer says which facts it revealed, so a consultation can be scored on what the
 * doctor drew out.
 *
 * What the case does not say gets the speaker's "not sure", as MediQ's patient answers what its facts do
 * not hold: never a yes or a no the case did not write. (A standardized patient would deny an unscripted
 * finding, but a denial can contradict the case — "heart problems in the family?" of a patient whose
 * father had a heart attack, or "are your vaccinations up to date?" — so the scripted patient does not.)
 * When the same answer tells facts, an unstated finding is left unanswered, as a patient talks about what
 * they have ("any nausea or vomiting?" — "I feel sick"); an unknown detail of a told entry adds "not sure".
 *
 * Asked their ideas, concerns or expectations (ICE, `ice-questions.ts`), the patient says the script's
 * line for each kind asked, after any facts the same question asked; asked one again, they say it again
 * as a person does ("Like I said, …"). A case without the line gets "not sure", as any unscripted
 * question does. An ICE line is no fact of the profile: it reveals none, so fact recall never counts it.
 *
 * The doctor's question comes as CMAS actions (self-play: what the doctor's policy decided) or as text,
 * read into actions by the question reader it was given (an LLM doctor's words; the embedded engine
 * provides one). Deterministic: the same questions in the same order give the same answers.
 */

/** A case a scripted patient can speak from: a profile and its lay script. */
export interface ScriptedCase extends PatientCase {
  readonly script: LayScript;
}

/** How a scripted patient is set up. */
export interface ScriptedPatientOptions {
  /** Reads a question given as text into CMAS actions (the embedded engine provides one). */
  readonly reader?: QuestionReader;
}

/** A doctor's question: the CMAS actions it performs, its text, or both (actions win). */
export interface DoctorQuestion {
  readonly text?: string;
  readonly actions?: readonly DoctorAction[] | null;
}

/** What the patient says, and the facts of the case it revealed (fact ids, `case-facts.ts`). */
export interface PatientAnswer {
  readonly text: string;
  readonly revealed: readonly string[];
}

/** Said before an ICE line asked a second time. */
const AS_I_SAID = "Like I said,";

/** Said when the script gives no "not sure" of its own, in turn. */
const DEFAULT_UNSURE = ["I'm not sure.", "Hmm, I don't know.", "Not sure, to be honest."];
const THANKS = "Okay, thank you, doctor.";
const ACKNOWLEDGE = "Okay.";

/** The end of a sentence. Example: the "." of "no, no cough." (not in "no, no cough"). */
const SENTENCE_END = /[.!?]$/;

/**
 * A line that starts with a capitalised word, neither "I" nor an acronym. Example: "Just want it sorted"
 * (not "I think its my heart", "I'm worried", "GP said").
 */
const CAPITALISED_START = /^[A-Z][a-z]/;

/** A line as it reads after "Like I said,": its capitalised first word in lower case. */
function continued(line: string): string {
  return CAPITALISED_START.test(line) ? line[0]!.toLowerCase() + line.slice(1) : line;
}

/** Lines said together: each but the last ends a sentence, whatever the speaker's punctuation. */
function joinLines(lines: readonly string[]): string {
  return lines
    .map((line, index) => (index < lines.length - 1 && !SENTENCE_END.test(line) ? `${line}.` : line))
    .join(" ");
}

/**
 * A case's scripted patient: its opening, its answers to a doctor's questions (CMAS actions, or text read
 * by the question reader it is given), and the facts each answer revealed.
 *
 * ```ts
 * const patient = new ScriptedPatient(libraryCase, { reader });
 * patient.opening(); // { text: "its my chest doc. …", revealed: ["symptom:chest pain", …] }
 * patient.answer({ actions: [{ action: "inquire", symptom: [{ value: "sweating" }] }] });
 * // { text: "Ive been sweating buckets, my shirts soaked through", revealed: ["symptom:sweating"] }
 * patient.answer({ text: "Do you smoke?" }); // read by `reader`
 * ```
 */
export class ScriptedPatient {
  private readonly index: FactIndex;
  private readonly told = new Set<string>();
  private readonly history: DialogueTurn[] = [];
  private openingSaid = false;
  private unsureSaid = 0;
  /** The ICE kinds the patient has answered from the script. */
  private readonly iceSaid = new Set<IceKind>();

  constructor(
    readonly patientCase: ScriptedCase,
    private readonly options: ScriptedPatientOptions = {},
  ) {
    this.index = new FactIndex(patientCase.profile, answeredQuestions(patientCase.script));
  }

  /** Every fact of the case (the denominator of fact recall). */
  get facts(): readonly string[] {
    return this.index.facts.map((fact) => fact.id);
  }

  /** The facts revealed so far. */
  get revealed(): ReadonlySet<string> {
    return new Set(this.told);
  }

  /**
   * The answer to "What brings you in?": the script's opening. Said here without a question, it joins the
   * conversation the question reader reads later questions in ("does it go anywhere?" after the opening
   * told of a pain).
   */
  opening(): PatientAnswer {
    const reply = this.openingAnswer();
    this.history.push({ speaker: "patient", text: reply.text });
    return reply;
  }

  /** The answer to a doctor's question. */
  answer(question: DoctorQuestion): PatientAnswer {
    const actions = question.actions ?? this.read(question.text);
    const asked = askedItems(this.index, actions, this.told);
    const ice = this.iceLines(question.text);
    const answered =
      asked.length > 0
        ? this.say(asked)
        : !this.openingSaid && !actions.some((action) => action.action === "diagnosis")
          ? this.openingAnswer()
          : ice.length > 0
            ? { text: "", revealed: [] }
            : { text: this.conversational(actions, question.text), revealed: [] };
    // What an ICE question asked is said after the facts it asked; a "not sure" of the facts gives way to it.
    const reply =
      ice.length === 0
        ? answered
        : {
            text: joinLines([...(answered.revealed.length > 0 ? [answered.text] : []), ...ice]),
            revealed: answered.revealed,
          };
    if (question.text !== undefined)
      this.history.push({ speaker: "doctor", text: question.text }, { speaker: "patient", text: reply.text });
    return reply;
  }

  /**
   * The script's lines for the ICE kinds a doctor's words ask (none when the case writes none for them):
   * the line the first time, "Like I said, …" and the line after that.
   */
  private iceLines(text: string | undefined): string[] {
    if (text === undefined) return [];
    return iceKindsAsked(text).flatMap((kind) => {
      const line = this.patientCase.script.ice?.[kind];
      if (line === undefined) return [];
      if (this.iceSaid.has(kind)) return [`${AS_I_SAID} ${continued(line)}`];
      this.iceSaid.add(kind);
      return [line];
    });
  }

  private openingAnswer(): PatientAnswer {
    this.openingSaid = true;
    const { says, reveals } = this.patientCase.script.opening;
    return { text: says, revealed: this.reveal(reveals) };
  }

  private read(text: string | undefined): readonly DoctorAction[] {
    if (text === undefined) return [];
    if (!this.options.reader)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        "a scripted patient needs a question reader to answer a question given as text",
      );
    return this.options.reader.read(text, this.history);
  }

  /** The lines for the facts asked (a fact a line already volunteered is not said twice), then what the case does not say. */
  private say(asked: readonly AskedItem[]): PatientAnswer {
    const lines: string[] = [];
    const revealed: string[] = [];
    for (const item of asked) {
      if (!("fact" in item) || revealed.includes(item.fact)) continue;
      const line = scriptLine(this.patientCase.script, item.fact);
      if (!line) continue;
      lines.push(line.says);
      revealed.push(...this.reveal([item.fact, ...line.reveals]).filter((fact) => !revealed.includes(fact)));
    }
    const unstated = asked.flatMap((item) => ("unstated" in item ? [item.unstated] : []));
    if (unstated.includes("detail") || (lines.length === 0 && unstated.length > 0)) lines.push(this.unsure());
    return { text: joinLines(lines), revealed };
  }

  /** Marks facts told (an attribute tells its entry too: "about an hour ago" answers for the pain); returns them. */
  private reveal(facts: readonly string[]): string[] {
    const told: string[] = [];
    for (const id of facts) {
      const entry = this.index.get(id)?.entry;
      for (const fact of entry === undefined ? [id] : [id, entry]) {
        this.told.add(fact);
        if (!told.includes(fact)) told.push(fact);
      }
    }
    return told;
  }

  /** The speaker's next "not sure", in turn. */
  private unsure(): string {
    const lines = this.patientCase.script.unsure ?? DEFAULT_UNSURE;
    return lines[this.unsureSaid++ % lines.length]!;
  }

  /**
   * The answer to a turn that asks nothing of the case's slots: thanks for a diagnosis; "not sure" to a
   * question read as asking nothing the case could hold ("when did it start?" read without its subject,
   * "are you sexually active?"), and to an ICE question the case writes no line for; else an acknowledgement.
   */
  private conversational(actions: readonly DoctorAction[], text = ""): string {
    if (actions.some((action) => action.action === "diagnosis")) return THANKS;
    if (actions.some((action) => action.action === "inquire")) return this.unsure();
    // "What do you think is causing it?" of a case that writes no idea of its own.
    if (iceKindsAsked(text).length > 0) return this.unsure();
    return ACKNOWLEDGE;
  }
}
