import { AGENTCLINIC_DATA, LIBRARY_DATA, MEDIQ_DATA } from "./consult-data.ts";
import { consultSuite } from "./consult-suite.ts";

/** The consultation suites: MediQ's, AgentClinic's and our library's cases, played whole. */

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

/** Our library: the doctor converses within its turns with a patient speaking its lay script, then names a diagnosis or none. */
export const CONSULT_LIBRARY = consultSuite({
  id: "consult-library",
  data: LIBRARY_DATA,
  title: "Library consultations",
  protocol:
    "our case library: the doctor opens and converses with a patient who speaks only its case's hand-written lay script, within its turns, then names a diagnosis, judged against the one the case states by hand under any of its accepted names (no diagnosis is right only where the case says none is supportable)",
  description:
    "Library consultations: diagnostic accuracy against each case's hand-judged answer (offline judge; --judge adds an LLM judge), questions, timeout rate, fact recall and the OSCE checklist, floor → doctor → ceiling.",
  judged: true,
});
