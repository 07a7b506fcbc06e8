import { availableParallelism } from "node:os";
import { createBackend, type BackendOptions, type ChatBackend } from "../../../src/backends/index.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { EMBEDDED_BACKEND_ID } from "../../../src/modules/builders/create-modules.ts";
import { createQuestionReader } from "../../../src/modules/builders/create-question-reader.ts";
import { loadPromptTemplate } from "../../../src/modules/prompting/prompt-template.ts";
import type { ConsultationSetup } from "../../../src/simulator/consultation/consultation-loop.ts";
import { complaintBlindQuestions } from "../../../src/simulator/consultation/controls.ts";
import type { DoctorRole, PatientRole, StateTracker } from "../../../src/simulator/consultation/consult-roles.ts";
import type { ConsultDataset } from "../../../src/simulator/consultation/consult-dataset.ts";
import { embeddedDoctor } from "../../../src/simulator/consultation/embedded-doctor.ts";
import { embeddedPatient } from "../../../src/simulator/consultation/embedded-patient.ts";
import { DOCTOR_PROMPTS, llmDoctor } from "../../../src/simulator/consultation/llm-doctor.ts";
import { llmPatient, PATIENT_PROMPT } from "../../../src/simulator/consultation/llm-patient.ts";
import { nluStateTracker } from "../../../src/simulator/consultation/state-tracker.ts";
import { workerStateTracker, type WorkerStateTracker } from "../../../src/simulator/consultation/tracking-worker.ts";
import type { FamilyModulesRequest } from "../../shared/suite-family.ts";
import type { SuiteModuleSetup } from "../../shared/suite-modules.ts";
import { consultDatasetOf } from "./consult-data.ts";
import { consultSettingsSchema, DEFAULT_CONSULT_SETTINGS, type ConsultSettings } from "./consult-settings.ts";
import { consultEngine } from "./consult-engine.ts";

/**
 * The consultation roles of a run, built from the bench command's choices: the doctor is the run's
 * backend (`embedded`: our dialogue manager over the embedded engine, as the chat runs it; any other
 * id: an LLM doctor), the patient `--patient` (`embedded`, or a backend id, on `--patient-base-url`),
 * the measurement reader and the state tracker the embedded ones, and the limits `--max-questions`
 * (MediQ) and `--max-turns` (AgentClinic, the library).
 */

/** The settings of a request, checked. */
function settingsOf(raw: Readonly<Record<string, unknown>>): ConsultSettings {
  const parsed = consultSettingsSchema.safeParse({ ...DEFAULT_CONSULT_SETTINGS, ...raw });
  if (!parsed.success)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `consultation settings: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  return parsed.data;
}

/** The patient's backend options: the doctor's limits and cache, its own server. */
function patientOptions(settings: ConsultSettings, doctor: BackendOptions): BackendOptions {
  const { baseUrl: _doctorServer, ...shared } = doctor;
  return { ...shared, ...(settings.patient_base_url ? { baseUrl: settings.patient_base_url } : {}) };
}

/** What the embedded patient is, by where the cases come from. */
const EMBEDDED_PATIENT_LABEL: Readonly<Record<ConsultDataset["source"], string>> = {
  mediq: "embedded (deterministic, the case's facts in its words; ontology/patient-answer-rules.json)",
  agentclinic: "embedded (deterministic, the case's facts in its words; ontology/patient-answer-rules.json)",
  library:
    "scripted (deterministic, each case's hand-written lay script; questions read by the embedded question reader)",
};

/** A template's version and hash, as run records name it. */
const versionOf = (version: string) => {
  const template = loadPromptTemplate(version);
  return `${template.version}#${template.hash}`;
};

/** What run.json and the report say about the roles. */
function protocolOf(
  settings: ConsultSettings,
  doctor: DoctorRole,
  patient: PatientRole,
  source: ConsultDataset["source"],
): Record<string, unknown> {
  return {
    name: "consultation",
    doctor:
      doctor.id === EMBEDDED_BACKEND_ID
        ? "embedded (our dialogue manager over the embedded engine, as the chat runs it)"
        : doctor.id,
    patient: patient.id === EMBEDDED_BACKEND_ID ? EMBEDDED_PATIENT_LABEL[source] : patient.id,
    measurement: "embedded reader (the case's findings by field name; ontology/test-names.json)",
    state_tracking: "the dialogue manager's state for the embedded doctor, the embedded NLU's for the others",
    max_questions: settings.max_questions,
    max_turns: settings.max_turns,
    floor: `complaint-blind list of ${complaintBlindQuestions().length} questions (ontology/complaint-blind-questions.json), answered by the doctor`,
    ceiling: "the doctor answering with every fact and finding of the case given up front",
  };
}

/** The tracking worker's module beside this one: compiled (.js) when this file is; workers run only compiled. */
function trackingWorkerUrl(): URL | undefined {
  return import.meta.url.endsWith(".js") ? new URL("./consult-tracking-worker.js", import.meta.url) : undefined;
}

/**
 * For an LLM doctor, with a core to spare: the state tracker on a worker thread, started now so that
 * it builds its NLU while this thread builds its own, and going on with `inThread` if it cannot.
 * The embedded doctor tracks its own state and its controls read the tracked states as they go, so
 * its runs track on this thread.
 */
function trackingWorker(backendId: string, inThread: () => StateTracker): WorkerStateTracker | undefined {
  const url = trackingWorkerUrl();
  if (backendId === EMBEDDED_BACKEND_ID || url === undefined || availableParallelism() < 2) return undefined;
  return workerStateTracker(url, inThread);
}

/** Builds the consultation roles of a run; see the module comment. */
export async function buildConsultModules(request: FamilyModulesRequest): Promise<SuiteModuleSetup> {
  const settings = settingsOf(request.settings);
  const dataset = consultDatasetOf(request.dataset);
  const meditod = loadMeditod();
  // The tracker on this thread, for the worker to fall back on: its NLU is built below.
  const onThisThread: { tracker?: StateTracker } = {};
  const worker = trackingWorker(request.backendId, () => onThisThread.tracker!);
  const embedded = await consultEngine(meditod).catch(async (error: unknown) => {
    await worker?.close();
    throw error;
  });
  const inThread = (onThisThread.tracker = nluStateTracker(embedded.modules.nlu));
  // The library's scripted patients read the doctor's words as the embedded engine does.
  const reader = dataset.source === "library" ? await createQuestionReader(meditod) : undefined;
  const backends: ChatBackend[] = [];
  const backend = async (id: string, options: BackendOptions) => {
    const made = await createBackend(id, options);
    backends.push(made);
    return made;
  };
  const close = async () => {
    await Promise.all([...backends.map(async (made) => made.close?.()), worker?.close()]);
  };
  try {
    const llm =
      request.backendId === EMBEDDED_BACKEND_ID ? null : await backend(request.backendId, request.backendOptions);
    const doctor = llm ? llmDoctor(llm) : embeddedDoctor(embedded.modules);
    const patient =
      settings.patient === EMBEDDED_BACKEND_ID
        ? embeddedPatient(reader)
        : llmPatient(await backend(settings.patient, patientOptions(settings, request.backendOptions)));
    const consult: ConsultationSetup = {
      doctor,
      patient,
      tracker: worker ?? inThread,
      limits: { maxQuestions: settings.max_questions, maxTurns: settings.max_turns },
    };
    const prompts = {
      ...(llm ? { doctor: versionOf(DOCTOR_PROMPTS[dataset.source === "mediq" ? "choice" : "diagnosis"]) } : {}),
      ...(patient.id !== EMBEDDED_BACKEND_ID ? { patient: versionOf(PATIENT_PROMPT) } : {}),
    };
    return {
      modules: { consult },
      unavailable: {},
      backend: llm ? { id: llm.id, parameters: llm.parameters } : { id: EMBEDDED_BACKEND_ID },
      promptVersions: prompts,
      protocol: protocolOf(settings, doctor, patient, dataset.source),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
