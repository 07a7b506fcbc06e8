import type { BenchDataset } from "../../shared/bench-dataset.ts";
import type { BenchResults } from "../../shared/bench-results.ts";
import { runLine } from "../../shared/report-blocks.ts";
import type { SuiteFamily } from "../../shared/suite-family.ts";
import { AGENTCLINIC_DATA, consultDatasetOf, LIBRARY_DATA, MEDIQ_DATA } from "./consult-data.ts";
import { terminalArmsTable } from "./consult-report.ts";
import type { ConsultScores } from "./consult-scoring.ts";

/**
 * The consultation suites' family: whole consultations of a doctor (the run's backend) with a patient
 * (`--patient`), each case also played by the complaint-blind floor and answered with every fact given
 * (the ceiling), on MediQ's, AgentClinic's or our library's cases.
 */

/** What each recorded protocol fact says, in the report's opening. */
function protocolLines(results: BenchResults): string[] {
  const protocol = results.protocol;
  const said = (key: string) =>
    typeof protocol[key] === "string" || typeof protocol[key] === "number" ? String(protocol[key]) : "–";
  const prompts = Object.entries(results.prompt_versions).map(([role, version]) => `${role} \`${version}\``);
  return [
    `Doctor: ${said("doctor")}. Patient: ${said("patient")}. Measurement: ${said("measurement")}.`,
    `Limits: ${said("max_questions")} questions (MediQ's budget; then the doctor must answer, and the case is a timeout), ${said("max_turns")} turns (AgentClinic's; the last one tells the doctor to answer). State tracking: ${said("state_tracking")}.`,
    `Floor: ${said("floor")}. Ceiling: ${said("ceiling")}. Read the doctor between the two.`,
    `${prompts.length > 0 ? `Prompts: ${prompts.join(", ")}. ` : ""}Diagnoses judged offline (ontology/diagnosis-synonyms.json)${protocol.judge !== "exact" ? ` and, labelled apart, by the LLM judge \`${String(protocol.judge)}\`` : ""}.`,
  ];
}

/** The report's opening: the run, the roles and limits, the data. */
function reportIntro(results: BenchResults, dataset: BenchDataset): string[] {
  const consult = consultDatasetOf(dataset);
  return [
    runLine(results),
    ...protocolLines(results),
    `Data: ${consult.source} cases from ${consult.files.join(", ")} (split \`${results.split}\`).`,
  ];
}

/** The consultation suites' family. */
export const CONSULT_FAMILY: SuiteFamily = {
  id: "consult",
  title: "the consultation suites",
  datasets: [MEDIQ_DATA, AGENTCLINIC_DATA, LIBRARY_DATA],
  helpLabel: "whole consultations",
  countLabel: "cases",
  order: "run",
  frameResultsTable: (table, results) => {
    const arms = Object.entries(results.suites).map(([id, scores]) => terminalArmsTable(id, scores as ConsultScores));
    return `${table}\n\n${arms.join("\n")}`;
  },
  reportIntro,
  // Loaded when a consultation run starts: the roles bring the dialogue manager, the simulator and
  // xstate, which every other command that lists the suites would otherwise load for nothing.
  buildModules: async (request) => (await import("./consult-setup.ts")).buildConsultModules(request),
  createJudge: async (id, options) =>
    (await import("../../../src/simulator/consultation/llm-diagnosis-judge.ts")).createDiagnosisJudge(id, options),
};
