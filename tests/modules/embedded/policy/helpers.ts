import type { ActionEntry, DialogueState, DoctorAction } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { ConversationReader } from "../../../../src/modules/embedded/policy/conversation-reader.ts";
import { loadHistoryPlan } from "../../../../src/language/history-plan.ts";
import { learnStatistics } from "../../../../src/modules/embedded/policy/learned-statistics.ts";
import { HistoryPlanner, type PlannerDecision } from "../../../../src/modules/embedded/policy/planner.ts";
import { PolicyModel } from "../../../../src/modules/embedded/policy/policy-model.ts";
import { loadTrainingData, type TrainingData } from "../../../../src/modules/embedded/training-data.ts";
import type { DialogueTurn } from "../../../../src/language/module-interfaces.ts";
import { dueIce } from "../../../../src/language/ice-questions.ts";
import { loadOntologyFile } from "../../../../src/ontology/ontology-files.ts";

export const dataset = loadMeditod();
export const training = loadTrainingData(dataset, "train");
export const plan = loadHistoryPlan();

/** The planner behind the embedded policy, learned from the given dialogues (default: the train split). */
export function plannerFrom(data: TrainingData = training): HistoryPlanner {
  return new HistoryPlanner(new PolicyModel(plan, learnStatistics(plan, data.dialogues)), new ConversationReader(plan));
}

/** A conversation from alternating lines, the doctor first. */
export function turns(...lines: string[]): DialogueTurn[] {
  return lines.map((text, index) => ({ speaker: index % 2 === 0 ? "doctor" : "patient", text }));
}

/** `slot:value` (with `/check` and `=values`) for every entry the actions ask about. */
export function asked(actions: readonly DoctorAction[]): string[] {
  return actions.flatMap((action) =>
    Object.entries(action)
      .filter(([key]) => key !== "action")
      .flatMap(([slot, entries]) =>
        (entries as ActionEntry[]).map((entry) => {
          const check = entry.checks?.[0];
          return `${slot}:${entry.value}${check?.type ? `/${check.type}` : ""}${check?.values ? `=${check.values.join("|")}` : ""}`;
        }),
      ),
  );
}

/** How a simulated doctor words a question about a value, in the words patients hear. */
const SPOKEN: Record<string, string> = {
  dyspnea: "shortness of breath",
  wheezing: "wheezing",
  "colored/excess sputum": "sputum",
  hemoptysis: "blood when you cough",
  dysphonia: "changes to your voice",
  "chest pain": "chest pain",
  palpitations: "palpitations",
  dizziness: "dizziness",
  syncope: "fainting",
  swelling: "swelling in your legs",
  pharyngitis: "sore throat",
  "nasal congestion": "stuffy nose",
  rhinorrhea: "runny nose",
  "hearing impairment": "changes in your hearing",
  "visual impairment": "changes in your vision",
  headache: "headaches",
  anosmia: "loss of smell",
  ageusia: "loss of taste",
  fever: "fevers",
  chills: "chills",
  "unexplained weight loss": "weight loss",
  bedridden: "fatigue",
  rash: "rashes",
  "dermatologic problem": "rashes",
  "change in faeces/bowel movements": "changes in your bowel movements",
  nausea: "nausea",
  vomiting: "vomiting",
  "difficulty passing urine": "urinary problems",
  confusion: "confusion",
  "memory impairment": "memory problems",
  general: "anything else, or would you say you are otherwise healthy",
  "past experience": "anything like this before",
  hospitalization: "hospital stays",
  "operative surgical procedures": "surgeries",
  immunization: "vaccinations",
  "drug allergy": "allergies to medications",
  "similar symptoms": "family members with similar symptoms",
  "heart diseases": "family history of heart or lung problems",
  "lung diseases": "family history of heart or lung problems",
  "malignant neoplasms": "cancers in the family",
  smoking: "smoking",
  "marijuana use": "marijuana",
  "alcohol abuse": "alcohol",
  "illicit drug use history": "recreational drugs",
  "sick person": "sick contacts",
  "animal dander": "pets at home",
  dust: "dust or chemicals at work",
  irritants: "dust or chemicals at work",
};

const SPOKEN_OTHER: Record<string, string> = {
  medical_history: "Do you have any medical conditions?",
  medication: "Are you taking any medications?",
  travel: "Any recent travel?",
  occupation: "What do you do for work?",
  residence: "Can you tell me about your living situation?",
};

const SPOKEN_CHECK: Record<string, (what: string) => string> = {
  onset: (what) => `When did the ${what} start?`,
  characteristics: (what) => `Can you describe the ${what}, is it dry or wet?`,
  ana_factors: (what) => `Does anything make the ${what} better or worse?`,
  severity: (what) => `On a scale of one to ten, how bad is the ${what}?`,
  progression: (what) => `Is the ${what} getting worse?`,
  volume: (what) => `How much ${what} do you bring up?`,
  location: (what) => `Any ${what}?`,
  starting: (what) => `How long have you been ${what}?`,
  frequency: (what) => `How often do you have ${what}?`,
};

/** How the live NLG words each ICE question. */
const ICE_WORDING = loadOntologyFile("nlg-templates.json").templates;

/** A doctor's question for the asks of a turn (what a simple NLG would say). */
export function speak(actions: readonly DoctorAction[]): string {
  const parts = actions.flatMap((action) =>
    Object.entries(action)
      .filter(([key]) => key !== "action")
      .flatMap(([slot, entries]) =>
        (entries as ActionEntry[]).map((entry) => {
          const value = entry.value ?? "";
          const check = entry.checks?.[0]?.type;
          if (value === "other") return SPOKEN_OTHER[slot] ?? "Anything else?";
          if (slot === "basic_information") return "How old are you?";
          const what = value === "coughing" ? "cough" : (SPOKEN[value] ?? value);
          if (entry.checks?.[0]?.values?.includes("radiation")) return `Does the ${what} spread anywhere?`;
          if (check && SPOKEN_CHECK[check] && check !== "where") return SPOKEN_CHECK[check](what);
          return `Any ${what}?`;
        }),
      ),
  );
  return parts.join(" ");
}

/** Simulated answers: every question is denied, every attribute gets a plausible answer. */
const ANSWERED: Record<string, string | string[]> = {
  onset: "a week ago",
  positive_characteristics: ["dry cough"],
  aggravating_factor: ["cold air"],
  severity: "5",
  progression: "worse",
  volume: "a teaspoon",
  location: ["leg"],
  starting: "ten years ago",
  frequency: "daily",
};

const CHECK_ATTRIBUTE: Record<string, string> = {
  characteristics: "positive_characteristics",
  ana_factors: "aggravating_factor",
};

/** The state after a patient who says "no" to everything asked, and answers attribute questions. */
export function answerNo(state: DialogueState, actions: readonly DoctorAction[]): DialogueState {
  const next: DialogueState = JSON.parse(JSON.stringify(state));
  const add = (slot: string, entry: Record<string, string | string[]>) => (next[slot] = [...(next[slot] ?? []), entry]);
  for (const action of actions) {
    for (const [slot, entries] of Object.entries(action).filter(([key]) => key !== "action")) {
      for (const entry of entries as ActionEntry[]) {
        const check = entry.checks?.[0];
        if (slot === "residence") add("residence", { value: "house", status: "living" });
        else if (slot === "basic_information") add("basic_information", { age: "40" });
        else if (slot === "occupation") add("occupation", { value: "teacher", status: "true" });
        else if (slot === "travel") add("travel", { status: "not_traveled" });
        else if (check?.type && check.type !== "location" && check.type !== "where") {
          const owner = Object.values(next)
            .flat()
            .find((candidate) => candidate.value === entry.value);
          const attribute = CHECK_ATTRIBUTE[check.type] ?? check.type;
          if (owner) owner[attribute] = ANSWERED[attribute] ?? "yes";
          else add(`positive_${slot}`, { value: entry.value!, [attribute]: ANSWERED[attribute] ?? "yes" });
        } else {
          add(
            `negative_${slot}`,
            check?.values ? { value: entry.value!, [check.type ?? "where"]: check.values } : { value: entry.value! },
          );
        }
      }
    }
  }
  return next;
}

export interface PlayedStep {
  readonly decision: PlannerDecision;
  /** The state the decision was made on. */
  readonly state: DialogueState;
}

/**
 * Plays a history: the planner asks, the doctor says it ({@link speak}), the patient denies it
 * ({@link answerNo}), until the planner closes, `stop` says so, or `maxTurns` is reached. `live`
 * plays it as a live conversation (the planner's `askOn`), the default as the MediTOD benchmark.
 */
export function play(
  planner: HistoryPlanner,
  opening: string,
  initial: DialogueState,
  stop: (decision: PlannerDecision) => boolean = () => false,
  maxTurns = 90,
  live = false,
): { steps: PlayedStep[]; history: DialogueTurn[]; state: DialogueState } {
  const history = turns("What brings you in today?", opening);
  let state = initial;
  const steps: PlayedStep[] = [];
  for (let turn = 0; turn < maxTurns; turn += 1) {
    const decision = planner.decide(history, state, { askOn: live });
    steps.push({ decision, state });
    if (decision.reason === "closing" || stop(decision)) break;
    // An ICE question is a lone chit-chat the live NLG words as the one due (`language/ice-questions.ts`).
    const ice = decision.reason === "ice" ? dueIce(history) : undefined;
    const text = ice ? ICE_WORDING[`chit-chat/ice:${ice}`]! : speak(decision.actions);
    history.push({ speaker: "doctor", text }, { speaker: "patient", text: "No." });
    state = answerNo(state, decision.actions);
  }
  return { steps, history, state };
}
