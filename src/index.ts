/**
 * The public API of Anamnesis (`import { … } from "anamnesis"`): the CMAS schemas and the dialogue-state
 * tracker, the MediTOD data, the official scorers and text metrics, backends (`createBackend`,
 * `registerProvider`, provider modules), the dialogue modules and manager, the simulator. The
 * package's entry (`index.ts` at the root) adds the benchmark runner (`eval/index.ts`); the backend
 * contract kit for plug-in authors is `anamnesis/testing`.
 */

// Errors
export { AnamnesisError, isAnamnesisError, type AnamnesisErrorCode } from "./foundation/errors.ts";

// CMAS: schemas, ontology, dialogue state
export {
  nluFrameSchema,
  nluFramesSchema,
  doctorActionSchema,
  doctorActionsSchema,
  dialogueStateSchema,
  describeIssues,
  type NluFrame,
  type DoctorAction,
  type DialogueState,
  type SlotEntry,
  type ActionEntry,
  type ActionCheck,
} from "./cmas/schemas.ts";
export { ontology, type Ontology } from "./cmas/ontology.ts";
export { DialogueStateTracker, applyFrames } from "./cmas/dialogue-state.ts";

// Data
export {
  loadMeditod,
  splitIds,
  getDialogue,
  datasetStats,
  BUNDLED_MEDITOD_DIR,
  SPLITS,
  type MeditodDataset,
  type Dialogue,
  type Utterance,
  type PatientUtterance,
  type DoctorUtterance,
  type Split,
} from "./data/meditod.ts";
export { loadMtsDialog } from "./data/mts-dialog.ts";
export { PACKAGE_ROOT, BUNDLED, bundledPath } from "./foundation/package-paths.ts";

// Scorers
export {
  scoreCmas,
  type CmasScores,
  type CmasTask,
  type PrecisionRecallF1,
  type TurnToScore,
} from "./metrics/cmas-f1.ts";
export { precisionAtK, OFFICIAL_K } from "./metrics/precision-at-k.ts";
export { scoreMeditodNlg, type MeditodNlgResult } from "./metrics/meditod-nlg.ts";
export { exactJudge, type AttributeJudge } from "./metrics/attribute-judge.ts";

// Text metrics with parity to the Python references
export { scorePair, scoreCorpus, type TextPair, type PairMetrics, type CorpusMetrics } from "./metrics/pair-metrics.ts";
export { hfBleu, type HfBleuResult } from "./metrics/bleu-hf.ts";
export { nltkCorpusBleu, nltkSentenceBleu } from "./metrics/bleu-nltk.ts";
export { sacrebleuCorpusBleu, sacrebleuSentenceBleu, type SacrebleuScore } from "./metrics/bleu-sacrebleu.ts";
export { rougeScore, type RougeScores, type RougeScore } from "./metrics/rouge.ts";
export { lmEvalProcessResults, lmEvalNanmean, type LmEvalTask, type LmEvalDocResult } from "./metrics/lm-eval.ts";

// Backends
export * from "./backends/spec.ts";
export {
  createBackend,
  registerProvider,
  listProviders,
  parseBackendId,
  describeBackendIds,
  type ProviderFactory,
  type ProviderRegistration,
  type ProviderSettings,
} from "./backends/registry.ts";
export {
  defineProvider,
  loadProviderModule,
  loadProviderModules,
  type ProviderDefinition,
} from "./backends/provider-module.ts";
export { createChatBackend, DEFAULT_TIMEOUT_MS, type ChatBackendExtras } from "./backends/chat-backend.ts";
export { loadConfig, type AnamnesisConfig, type BackendOptions } from "./backends/config.ts";
export { sanitizeUrl } from "./backends/sanitize-url.ts";
export {
  type BackendSettings,
  type CommonSettings,
  type LangChainSettings,
  type LlamaCppSettings,
  type OllamaSettings,
  type OpenAISettings,
  type ResolvedSettings,
} from "./backends/settings.ts";
export { NoSuchModelError, NoSuchProviderError } from "./backends/errors.ts";
export { createAttributeJudge, LlmAttributeJudge } from "./backends/llm-attribute-judge.ts";

// Dialogue modules and manager
export {
  createModules,
  EMBEDDED_BACKEND_ID,
  type ModuleSetup,
  type CreateModulesOptions,
} from "./modules/builders/create-modules.ts";
export type {
  DialogueModules,
  NluModule,
  PolicyModule,
  NlgModule,
  DialogueTurn,
  BackendFailure,
} from "./language/module-interfaces.ts";
export type { Informant } from "./language/informant.ts";
export type { PatientRequest, PatientRequestKind, RecordedPatientRequest } from "./language/patient-requests.ts";
export { createOfficialSetup, type OfficialSetupOptions } from "./modules/builders/official-setup.ts";
export {
  createOfficialModules,
  OFFICIAL_MAX_TOKENS,
  type OfficialModules,
  type OfficialModulesOptions,
} from "./modules/official/official-modules.ts";
export { readMeditodCheckout, type MeditodCheckout } from "./modules/official/meditod-checkout.ts";
export { pythonJsonDumps } from "./data/python-json.ts";
export { Conversation, type TurnOutcome, type ConversationSnapshot } from "./dialogue-manager/conversation.ts";
export {
  dialogueMachine,
  type DialogueContext,
  type DialogueEvent,
  type DialogueInput,
} from "./dialogue-manager/dialogue-machine.ts";
// What dialogueMachine.provide() takes to run a conversation without the Conversation class.
export { moduleActors } from "./dialogue-manager/module-actors.ts";
export { clinicalRules } from "./dialogue-manager/clinical-rules.ts";
export { PatientSimulator, caseFromDialogue, type PatientCase } from "./simulator/patient-simulator.ts";
export { type RecordedRedFlag, type FallbackTurn } from "./dialogue-manager/dialogue-machine.ts";

// Clinical scope: red flags, working diagnoses, the closing rules, the clinical note; self-play
export { loadRedFlags, RedFlagRules, type RedFlag } from "./clinical/red-flags.ts";
export { loadDiagnoses, DiagnosisRules, type WorkingImpression } from "./clinical/diagnoses.ts";
export { enforceClosingScope } from "./clinical/closing-scope.ts";
export { clinicalNote, clinicalNoteSchema, type ClinicalNote, type NoteInput } from "./clinical/clinical-note.ts";
export { noteToMarkdown } from "./clinical/note-markdown.ts";
export { loadCaseLibrary, meditodCases, type SelfPlayCase } from "./simulator/case-library.ts";
export { playCase, summarise, type CaseResult, type SelfPlaySummary, type ClosingFit } from "./simulator/self-play.ts";
