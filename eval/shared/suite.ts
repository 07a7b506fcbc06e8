import type { CallOptions, ModuleCallInfo } from "../../src/language/module-interfaces.ts";
import type { AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import type { ModelMetricRequest } from "../../src/metrics/model-metrics/model-metrics.ts";
import type { ProtocolName } from "../../src/modules/builders/modules-for-protocol.ts";
import type { BenchDataset } from "./bench-dataset.ts";
import type { AnyPredictionLine, PredictionsFormat } from "./predictions-file.ts";
import type { ReportSection } from "./report-blocks.ts";
import type { SuiteFamily } from "./suite-family.ts";
import type { SuiteModules } from "./suite-modules.ts";

/**
 * A benchmark suite, declared in one place (its folder under `eval/suites/`): the data it reads, how its
 * examples are made and predicted, how a predictions file is scored, and how its scores are shown: its
 * row of the results table, its section of the report, the paper's baselines and its
 * `anamnesis score` subcommand. The registry (`eval/registry.ts`) lists every suite; the runner, merge,
 * the report and the commands only iterate it. `docs/extending.md` adds one.
 */

/** One example to predict. */
export interface SuiteExample {
  /** Unique in the suite: what resuming and merging match on (the predictions format's key). */
  readonly key: string;
  /** The fields that identify it in its predictions line: `dialogue_id` and `turn`, or `id`. */
  readonly fields: Readonly<Record<string, string | number>>;
  predict(modules: SuiteModules, options: CallOptions): Promise<{ prediction: unknown; info: ModuleCallInfo }>;
}

/** A row of a paper's results table: the setting and model, then its figures by name. */
export interface PaperBaseline {
  readonly setting: string;
  readonly model: string;
}

/** What a suite's report section is made from. */
export interface SuiteReportContext<Scores> {
  readonly scores: Scores;
  readonly dataset: BenchDataset;
  /** The run directory: breakdowns read the suite's predictions file from it. */
  readonly dir: string;
  /** This run's name in a table (Markdown, with the backend and any tuned-on-split mark) and in a chart. */
  readonly ourLabel: string;
  readonly chartLabel: string;
}

/** A predictions line whose model output could not be read, and why. */
export interface FormatError {
  readonly line: AnyPredictionLine;
  readonly reason: string;
}

/** What `anamnesis score <suite>` is given: the predictions file, `--data`, and the judge when it takes one. */
export interface ScoreInput {
  readonly predictions: string;
  readonly data?: string;
  /** `--split`, for suites whose predictions files may not name their examples (an official CSV of one split). */
  readonly split?: string;
  /** The `--judge` for non-medical attributes (`exact` unless asked), made only by suites that take one. */
  readonly judge: () => Promise<AttributeJudge>;
  /** Where the model-based metrics come from (`--bertscore`, `--bleurt`, …); absent ones are null with their reason. */
  readonly models?: ModelMetricRequest;
}

/** A model-based metric a suite reports: its flags are offered by `anamnesis score` and `anamnesis bench`. */
export type ModelMetricName = "bertscore" | "bleurt" | "medcon";

/** A suite's `anamnesis score <id>` subcommand. */
export interface ScoreCommand<Scores> {
  readonly description: string;
  /** The help of `--predictions <file>`: what one line holds. */
  readonly predictionsHelp: string;
  /** The help of `--split <split>` when the suite takes one (see {@link ScoreInput.split}). */
  readonly splitHelp?: string;
  /** Whether non-medical attributes may be matched by an LLM judge (`--judge`, `--base-url`, `--no-cache`, `--provider-module`). */
  readonly judged: boolean;
  /** The model-based metrics it reports (BERTScore, BLEURT), whose source flags it takes. */
  readonly modelMetrics?: readonly ModelMetricName[];
  /** Reads the predictions file and the data, and scores. */
  run(input: ScoreInput): Promise<Scores>;
  /** The scores as the terminal shows them without `--json`, ending in a newline. */
  print(scores: Scores): string;
}

/** A benchmark suite: see the module comment. `Id` is its id, `Scores` what its scorer returns. */
export interface Suite<Id extends string = string, Scores = unknown> {
  /** Its `--suite` id, the name of its predictions file (`predictions-<id>.jsonl`) and of its score subcommand. */
  readonly id: Id;
  /** How its runs are built, introduced and tabled, shared with the suites on the same kind of data. */
  readonly family: SuiteFamily;
  /** The name of the data it reads, one of its family's datasets; suites on different data need separate runs. */
  readonly data: string;
  /** The module that predicts its examples. */
  readonly module: keyof SuiteModules;
  /** What the module sees, for run records. */
  readonly protocol: string;
  readonly format: PredictionsFormat;
  /** The instructions it gives a prompted module, versioned for run records (the embedded engine ignores them). */
  readonly prompt?: { readonly module: keyof SuiteModules; readonly version: string };
  /**
   * How many examples are predicted at once at `--concurrency n` (n when absent). A suite whose
   * example makes its calls one after another, with work of its own between them (a consultation),
   * keeps more open than n, so that n requests are waiting whenever one ends; the backend's own limit
   * still keeps at most n in flight.
   */
  openExamples?(concurrency: number, modules: SuiteModules): number;
  /** The examples of a split; the official MediTOD protocol leaves out an NLU turn that ends its dialogue. */
  examples(dataset: BenchDataset, split: string, protocol?: ProtocolName): SuiteExample[];
  /** Scores predictions lines; `models` says where the model-based metrics it reports come from. */
  score(
    dataset: BenchDataset,
    lines: readonly AnyPredictionLine[],
    judge?: AttributeJudge,
    models?: ModelMetricRequest,
  ): Promise<Scores>;
  /** Its row of the results table `anamnesis bench` and `merge` print: what it counted, then its scores. */
  resultCells(scores: Scores): string[];
  /** Its part of report.md and report.html. */
  reportSection(context: SuiteReportContext<Scores>): ReportSection;
  /** The paper's figures its report shows beside ours (`eval/paper-baselines.json`); none when no paper reports any. */
  readonly baselines: readonly PaperBaseline[];
  /** The lines whose output could not be read, for the report's format-error table; absent when a suite's outputs cannot fail so. */
  formatErrors?(lines: readonly AnyPredictionLine[], dataset: BenchDataset): FormatError[];
  readonly scoreCommand: ScoreCommand<Scores>;
  /**
   * Files a suite writes into the run directory beside its predictions, from its scored lines (the
   * consultation suites' per-case transcripts); `clearRunDirectory` removes what it lists in `artifacts`.
   */
  writeArtifacts?(dir: string, lines: readonly AnyPredictionLine[]): void;
}
