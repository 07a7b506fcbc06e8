import type { DialogueState } from "../../cmas/schemas.ts";
import type { DialogueTurn, PolicyModule } from "../../language/module-interfaces.ts";
import { ConversationReader } from "./policy/conversation-reader.ts";
import { loadHistoryPlan } from "../../language/history-plan.ts";
import { learnStatistics } from "./policy/learned-statistics.ts";
import { HistoryPlanner } from "./policy/planner.ts";
import { PolicyModel } from "./policy/policy-model.ts";
import type { TrainingData } from "./training-data.ts";

const WARM_UP = {
  history: [
    { speaker: "doctor", text: "What brings you in today?" },
    { speaker: "patient", text: "I've had a cough for a week." },
    { speaker: "doctor", text: "When did the cough start, and is it getting worse?" },
    { speaker: "patient", text: "About a week ago, and yes." },
    { speaker: "doctor", text: "Is it a dry cough?" },
    { speaker: "patient", text: "Yes." },
    { speaker: "doctor", text: "Any blood?" },
    { speaker: "patient", text: "No." },
  ],
  state: { positive_symptom: [{ value: "coughing", onset: "a week ago", progression: "worse" }] },
} satisfies { history: DialogueTurn[]; state: DialogueState };

/**
 * The embedded offline policy: a history-taking planner that follows the OSCE order of
 * `ontology/history-plan.json` (complaint and its attributes, review of systems, past history,
 * medications, allergies, family history, habits, exposures, travel, occupation, residence, closing),
 * asks only what the state does not know and the doctor has not asked, and takes its order, section
 * lengths, follow-up habits and check values from the training dialogues. Deterministic, no network.
 * `askOn` is for live conversations: an acknowledgement is then never the whole reply while the
 * history is open.
 */
export function buildEmbeddedPolicy(training: TrainingData, options: { readonly askOn?: boolean } = {}): PolicyModule {
  const plan = loadHistoryPlan();
  const model = new PolicyModel(plan, learnStatistics(plan, training.dialogues));
  const planner = new HistoryPlanner(model, new ConversationReader(plan));
  // One decision at build time runs every cue on a few questions: V8 compiles a regular expression on
  // first use and again to machine code on the next, which would otherwise cost the first real calls ~3 ms.
  planner.decide(WARM_UP.history, WARM_UP.state);
  return {
    id: "embedded",
    async nextActions({ history, state, informant, requests }) {
      const started = performance.now();
      const { actions } = planner.decide(history, state, { ...options, informant, requests });
      return { actions, latencyMs: performance.now() - started };
    },
  };
}
