import type { PolicyModule } from "../types.ts";
import { ConversationReader } from "./policy/conversation-reader.ts";
import { loadHistoryPlan } from "./policy/history-plan.ts";
import { learnStatistics } from "./policy/learned-statistics.ts";
import { HistoryPlanner } from "./policy/planner.ts";
import { PolicyModel } from "./policy/policy-model.ts";
import type { TrainingData } from "./training-data.ts";

/**
 * The embedded offline policy: a history-taking planner that follows the OSCE order of
 * `ontology/history-plan.json` (complaint and its attributes, review of systems, past history,
 * medications, allergies, family history, habits, exposures, travel, occupation, residence, closing),
 * asks only what the state does not know and the doctor has not asked, and takes its order, section
 * lengths, follow-up habits and check values from the training dialogues. Deterministic, no network.
 */
export function buildEmbeddedPolicy(training: TrainingData): PolicyModule {
  const plan = loadHistoryPlan();
  const model = new PolicyModel(plan, learnStatistics(plan, training.dialogues));
  const planner = new HistoryPlanner(model, new ConversationReader(plan));
  return {
    id: "embedded",
    async nextActions({ history, state }) {
      const started = performance.now();
      const { actions } = planner.decide(history, state);
      return { actions, latencyMs: performance.now() - started };
    },
  };
}
