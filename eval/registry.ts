import type { BenchDataset } from "./shared/bench-dataset.ts";
import { createSuiteRegistry } from "./suite-registry.ts";
import { ACI_BENCH } from "./suites/aci-bench/aci-bench.ts";
import { MEDTEXT, MEDTEXT_PERPLEXITY, MTS_DIALOG, MTS_DIALOG_PERPLEXITY } from "./suites/clinical-notes/note-suites.ts";
import { MEDITOD_NLG } from "./suites/meditod/meditod-nlg.ts";
import { MEDITOD_NLU } from "./suites/meditod/meditod-nlu.ts";
import { MEDITOD_POL } from "./suites/meditod/meditod-pol.ts";
import { MEDIQA_CHAT_A } from "./suites/mediqa-chat/task-a.ts";

/**
 * Every suite the runner ships, one line each, in the order the results tables, `bench --help` and
 * `anamnesis score` list them. Adding a suite is its folder under `eval/suites/` and one line here
 * (`docs/extending.md`).
 */
const REGISTERED = [
  MEDITOD_NLU,
  MEDITOD_POL,
  MEDITOD_NLG,
  MTS_DIALOG,
  MEDIQA_CHAT_A,
  MTS_DIALOG_PERPLEXITY,
  MEDTEXT,
  MEDTEXT_PERPLEXITY,
  ACI_BENCH,
] as const;

/** The registry of the suites the runner ships. */
export const SUITE_REGISTRY = createSuiteRegistry<(typeof REGISTERED)[number]>(REGISTERED);

/** A benchmark suite id: `meditod-nlu`, `meditod-pol`, `meditod-nlg`, or a clinical-note suite. */
export type SuiteId = (typeof REGISTERED)[number]["id"];

/** A registered suite by its id. */
export type RegisteredSuite<Id extends SuiteId = SuiteId> = Extract<(typeof REGISTERED)[number], { readonly id: Id }>;

/** Every benchmark suite by id: how it reads examples, predicts and scores. */
export const SUITES = Object.fromEntries(REGISTERED.map((suite) => [suite.id, suite])) as {
  readonly [Id in SuiteId]: RegisteredSuite<Id>;
};

/** Expands `meditod` into its three suites; unknown ids raise an error listing the known ones. */
export function resolveSuites(ids: readonly string[]): SuiteId[] {
  return SUITE_REGISTRY.resolve(ids);
}

/** Loads a suite's data: `path` is MediTOD's directory, MTS-Dialog's / MedText's file, or an ACI-Bench checkout (default: the bundled data). */
export function loadBenchDataset(data: string, path?: string): BenchDataset {
  return SUITE_REGISTRY.dataset(data).load(path);
}
