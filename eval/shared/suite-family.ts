import type { BackendOptions } from "../../src/backends/index.ts";
import type { AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import type { ProtocolName } from "../../src/modules/builders/modules-for-protocol.ts";
import type { BenchDataset, DatasetSource } from "./bench-dataset.ts";
import type { BenchResults } from "./bench-results.ts";
import type { SuiteModuleSetup } from "./suite-modules.ts";

/** What a family that builds its own modules is given: the backend, the data and its own settings. */
export interface FamilyModulesRequest {
  readonly backendId: string;
  readonly backendOptions: BackendOptions;
  readonly dataset: BenchDataset;
  /** The family's own settings (the consultation suites' patient and limits), as run.json records them. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/**
 * What the suites on one kind of data share (the MediTOD suites; the clinical-note suites): the data
 * they read, the protocols their runs are prompted under, how the results table counts and frames
 * them, and how the report opens. Each suite names its family; a run's suites are of one family.
 */
export interface SuiteFamily {
  readonly id: string;
  /** Its name in messages, e.g. "the MediTOD suites". */
  readonly title: string;
  /** The data its suites read. */
  readonly datasets: readonly DatasetSource[];
  /** A `--suite` word that stands for several of its suites (`meditod`: NLU, POL and NLG), and how `--help` says so. */
  readonly alias?: { readonly word: string; readonly suites: readonly string[]; readonly description: string };
  /** How `bench --help` introduces its suites after the first family's (e.g. "lm-eval's clinical-note suites"). */
  readonly helpLabel?: string;
  /** The MediTOD prompting protocols its runs are made under and record in run.json; absent when its suites fix their own prompt. */
  readonly protocols?: readonly ProtocolName[];
  /** What its results table counts per suite (`turns`, `documents`). */
  readonly countLabel: string;
  /**
   * The order its tables list its suites in: `registry` (the paper's order, whatever the run's order) or
   * `run` (the order the run holds them).
   */
  readonly order: "registry" | "run";
  /** The results table with what must be read beside it (the protocol, the data's caveats). */
  frameResultsTable(table: string, results: BenchResults): string;
  /** The report's opening paragraphs (Markdown). */
  reportIntro(results: BenchResults, dataset: BenchDataset): string[];
  /** Builds the modules its suites predict with itself (the consultation roles) instead of the MediTOD module builders. */
  buildModules?(request: FamilyModulesRequest): Promise<SuiteModuleSetup>;
  /** The judge `--judge` names for its suites, when it is not the attribute judge (the consultation suites judge diagnoses). */
  createJudge?(id: string, options: BackendOptions): Promise<AttributeJudge>;
}
