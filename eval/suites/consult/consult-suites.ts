import { AGENTCLINIC_DATA, MEDIQ_DATA } from "./consult-data.ts";
import { consultSuite } from "./consult-suite.ts";

/** The consultation suites: MediQ's and AgentClinic's cases, played whole. */

/** MediQ: the doctor asks within a question budget, then commits to one option letter. */
export const CONSULT_MEDIQ = consultSuite({
  id: "consult-mediq",
  data: MEDIQ_DATA,
  title: "MediQ consultations",
  protocol:
    "MediQ: the doctor knows the multiple-choice question and its options and hears the patient's initial information; it asks one question a turn, within the question budget, then commits to one option letter, scored against answer_idx",
  description:
    "MediQ consultations: accuracy, questions, timeout rate, fact recall and the OSCE checklist, floor → doctor → ceiling, from a run's predictions.",
  judged: false,
});

/** AgentClinic: the doctor converses and requests tests within its turns, then names a diagnosis. */
export const CONSULT_AGENTCLINIC = consultSuite({
  id: "consult-agentclinic",
  data: AGENTCLINIC_DATA,
  title: "AgentClinic consultations",
  protocol:
    "AgentClinic: the doctor is told the case's objective, converses with the patient and may request examinations and tests (answered from the case's findings) within its turns, then names a diagnosis, judged offline and, labelled, by an LLM judge",
  description:
    "AgentClinic consultations: diagnostic accuracy (offline judge; --judge adds an LLM judge), questions, timeout rate, fact recall and the OSCE checklist, floor → doctor → ceiling.",
  judged: true,
});
