import { slotDefinition } from "../cmas/ontology.ts";
import type { DoctorAction } from "../cmas/schemas.ts";
import { layTerm } from "../language/lay-terms.ts";
import { actionSlots } from "../language/action-signature.ts";
import type { QuestionReader } from "../language/question-reader.ts";
import type { DialogueTurn } from "../language/module-interfaces.ts";
import { coverageOf, type Coverage } from "./coverage.ts";
import { PatientSimulator, type PatientCase } from "./patient-simulator.ts";

/**
 * Practice mode: a person plays the doctor, the simulated patient answers from a case profile, and the
 * coverage says which parts of the case's history the questions have reached so far.
 */

export interface PracticeTurn {
  readonly patient: string;
  /** What the question was read as. */
  readonly actions: DoctorAction[];
  readonly coverage: Coverage;
}

const OPEN_VALUES = new Set(["other", "all", "none"]);
const GREETING = /\b(?:hi|hello|hey|good (?:morning|afternoon|evening)|nice to meet you)\b/i;
const THANKS = /\b(?:thanks?|thank you|bye|goodbye|take care)\b/i;

const and = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** A practice dialogue as plain JSON, to be stored and resumed (the case is stored by its id). */
export interface PracticeRecord {
  readonly turns: DialogueTurn[];
  readonly asked: DoctorAction[];
  readonly complaintTold: boolean;
}

export class PracticeDialogue {
  readonly simulator: PatientSimulator;
  private readonly turns: DialogueTurn[] = [];
  private readonly asked: DoctorAction[] = [];
  private complaintTold = false;

  constructor(
    readonly patientCase: PatientCase,
    private readonly reader: QuestionReader,
    resumeFrom?: PracticeRecord,
  ) {
    this.simulator = new PatientSimulator(patientCase);
    if (resumeFrom) {
      this.turns.push(...structuredClone(resumeFrom.turns));
      this.asked.push(...structuredClone(resumeFrom.asked));
      this.complaintTold = resumeFrom.complaintTold;
    }
  }

  /** The dialogue as plain JSON; `new PracticeDialogue(case, reader, record)` continues it. */
  record(): PracticeRecord {
    return structuredClone({ turns: this.turns, asked: this.asked, complaintTold: this.complaintTold });
  }

  get history(): readonly DialogueTurn[] {
    return this.turns;
  }

  coverage(): Coverage {
    return coverageOf(this.patientCase.profile, this.asked);
  }

  /** The trainee's question; the patient's answer. */
  ask(text: string): PracticeTurn {
    const actions = this.reader.read(text, this.turns);
    const patient = this.answer(text, actions);
    this.turns.push({ speaker: "doctor", text }, { speaker: "patient", text: patient });
    this.asked.push(...actions);
    return { patient, actions, coverage: this.coverage() };
  }

  private answer(text: string, actions: readonly DoctorAction[]): string {
    const inquiries = actions.filter((action) => action.action === "inquire");
    if (inquiries.length === 0) {
      if (GREETING.test(text)) return "Hello, doctor.";
      if (THANKS.test(text)) return "Thank you, doctor.";
      return "Okay.";
    }
    const parts: string[] = [];
    for (const action of inquiries) {
      for (const [slot, entries] of actionSlots(action)) {
        const medical = slotDefinition(slot)?.group === "medical";
        const open = medical
          ? entries.filter((entry) => entry.value === undefined || OPEN_VALUES.has(entry.value))
          : [];
        const named = entries.filter((entry) => !open.includes(entry));
        if (named.length > 0) parts.push(this.simulator.answer([{ action: "inquire", [slot]: named }]));
        if (open.length > 0) parts.push(this.tell(slot));
      }
    }
    if (parts.length > 0) return parts.join(" ");
    // A question naming nothing we know: first the chief complaint ("What brings you in?"), then a request to rephrase.
    if (!this.complaintTold) {
      this.complaintTold = true;
      return this.simulator.openingStatement();
    }
    return "Sorry, I'm not sure what you mean. Could you ask me that another way?";
  }

  /** The answer to an open question about a slot: everything present the profile has there. */
  private tell(slot: string): string {
    const present = Object.entries(this.patientCase.profile)
      .filter(([prefixed]) => prefixed === `positive_${slot}` || prefixed === `avail_${slot}`)
      .flatMap(([, entries]) => entries)
      .map((entry) => (typeof entry.value === "string" ? entry.value : ""))
      .filter((value) => value !== "" && !OPEN_VALUES.has(value));
    if (slot === "symptom") this.complaintTold = true;
    if (present.length === 0) return "No, nothing like that.";
    const names = and(present.map(layTerm));
    switch (slot) {
      case "medication":
        return `I take ${names}.`;
      case "family_history":
        return `Yes, there's ${names} in my family.`;
      case "medical_test":
        return `I've had ${names}.`;
      case "habit":
      case "exposure":
        return `Yes: ${names}.`;
      default:
        return `Yes, I have ${names}.`;
    }
  }
}
