import { AnamnesisError } from "../src/errors.ts";
import type { MeditodDataset, Split } from "../src/data/meditod.ts";
import { nlgExamples, nluExamples, policyExamples } from "../src/data/meditod-views.ts";
import type { CallOptions, DialogueModules, DialogueTurn, ModuleCallInfo } from "../src/modules/types.ts";
import type { AttributeJudge } from "../src/metrics/attribute-judge.ts";
import { scoreNlgPredictions, scoreNluPredictions, scorePolicyPredictions } from "./meditod-scoring.ts";
import type { PredictionLine } from "./predictions-file.ts";

/**
 * Benchmark suites as data: a dataset view, how to predict one example with the modules, and how to
 * score a predictions file. The evaluation protocol is the paper's: NLU sees the gold history; the
 * policy sees the gold history and the gold state; NLG sees the gold history and the gold actions.
 */

export const MEDITOD_SUITES = ["meditod-nlu", "meditod-pol", "meditod-nlg"] as const;
export type SuiteId = (typeof MEDITOD_SUITES)[number];

/** One example to predict, identified as in predictions files. */
export interface SuiteExample {
  readonly dialogueId: string;
  readonly turn: number;
  predict(modules: DialogueModules, options: CallOptions): Promise<{ prediction: unknown; info: ModuleCallInfo }>;
}

export interface Suite {
  readonly id: SuiteId;
  readonly module: keyof DialogueModules;
  /** What the module sees, for run records. */
  readonly protocol: string;
  examples(dataset: MeditodDataset, split: Split): SuiteExample[];
  score(dataset: MeditodDataset, lines: readonly PredictionLine[], judge?: AttributeJudge): Promise<unknown>;
}

const turnsOf = (history: ReadonlyArray<{ speaker: "doctor" | "patient"; text: string }>): DialogueTurn[] => history.map(({ speaker, text }) => ({ speaker, text }));

export const SUITES: Record<SuiteId, Suite> = {
  "meditod-nlu": {
    id: "meditod-nlu",
    module: "nlu",
    protocol: "patient turns; the module sees the gold dialogue history",
    examples: (dataset, split) =>
      nluExamples(dataset, split).map((example) => ({
        dialogueId: example.dialogueId,
        turn: example.turn,
        async predict(modules, options) {
          const { frames, ...info } = await modules.nlu.understand({ history: turnsOf(example.history), utterance: example.text, dialogueId: example.dialogueId }, options);
          return { prediction: frames ?? [], info };
        },
      })),
    score: (dataset, lines, judge) => scoreNluPredictions(dataset, lines, judge),
  },
  "meditod-pol": {
    id: "meditod-pol",
    module: "policy",
    protocol: "doctor turns except the first; the module sees the gold history and the gold dialogue state",
    examples: (dataset, split) =>
      policyExamples(dataset, split).map((example) => ({
        dialogueId: example.dialogueId,
        turn: example.turn,
        async predict(modules, options) {
          const { actions, ...info } = await modules.policy.nextActions({ history: turnsOf(example.history), state: example.state, dialogueId: example.dialogueId }, options);
          return { prediction: actions ?? [], info };
        },
      })),
    score: (dataset, lines, judge) => scorePolicyPredictions(dataset, lines, judge),
  },
  "meditod-nlg": {
    id: "meditod-nlg",
    module: "nlg",
    protocol: "doctor turns except the first; the module sees the gold history and the gold actions",
    examples: (dataset, split) =>
      nlgExamples(dataset, split).map((example) => ({
        dialogueId: example.dialogueId,
        turn: example.turn,
        async predict(modules, options) {
          const { text, ...info } = await modules.nlg.realise({ history: turnsOf(example.history), actions: example.actions, dialogueId: example.dialogueId }, options);
          return { prediction: text, info };
        },
      })),
    score: async (dataset, lines) => scoreNlgPredictions(dataset, lines),
  },
};

/** Expands `meditod` into its three suites; unknown ids raise an error listing the known ones. */
export function resolveSuites(ids: readonly string[]): SuiteId[] {
  const expanded = ids.flatMap((id) => (id === "meditod" ? [...MEDITOD_SUITES] : [id]));
  const unknown = expanded.filter((id) => !(MEDITOD_SUITES as readonly string[]).includes(id));
  if (unknown.length > 0) {
    throw new AnamnesisError("INVALID_ARGUMENT", `unknown suite '${unknown[0]}' (available: meditod, ${MEDITOD_SUITES.join(", ")})`);
  }
  return expanded.filter((id, index): id is SuiteId => expanded.indexOf(id) === index);
}
