import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { loadMeditod, type MeditodDataset, type Split, type Utterance } from "../../../src/data/meditod.ts";
import type { CallOptions, DialogueTurn, ModuleCallInfo } from "../../../src/language/module-interfaces.ts";
import type { AttributeJudge } from "../../../src/metrics/attribute-judge.ts";
import type { ModelMetricRequest } from "../../../src/metrics/model-metrics/model-metrics.ts";
import type { BenchModules, ProtocolName } from "../../../src/modules/builders/modules-for-protocol.ts";
import {
  inPredictionsFile,
  MEDITOD_LINES,
  readPredictionLines,
  type PredictionLine,
} from "../../shared/predictions-file.ts";
import type { FormatError, PaperBaseline, ScoreCommand, Suite, SuiteReportContext } from "../../shared/suite.ts";
import type { ReportSection } from "../../shared/report-blocks.ts";
import { MEDITOD_DATA, meditodDataset } from "./meditod-data.ts";
import { MEDITOD_FAMILY } from "./meditod-family.ts";

/**
 * One factory for the MediTOD suites: a suite is its differences (which turns, which module and what it
 * sees, the scorer, its cells, report section and score subcommand); the factory adds what they share:
 * MediTOD's data and predictions format (`{dialogue_id, turn, prediction}`), examples keyed by dialogue
 * and turn, and how `anamnesis score` reads a predictions file and the data.
 */

/** A MediTOD turn to predict: where it is, and the gold history before it. */
export interface MeditodTurn {
  readonly dialogueId: string;
  readonly turn: number;
  readonly history: readonly Utterance[];
}

/** What a MediTOD suite's report section is made from: the run's MediTOD data. */
export type MeditodReportContext<Scores> = Omit<SuiteReportContext<Scores>, "dataset"> & {
  readonly dataset: MeditodDataset;
};

/** What one MediTOD suite declares; the factory {@link meditodSuite} makes the suite. */
export interface MeditodVariant<Id extends string, Scores, Example extends MeditodTurn> {
  readonly id: Id;
  readonly module: "nlu" | "policy" | "nlg";
  readonly protocol: string;
  /** The turns of a split the suite predicts, under the given prompting protocol. */
  examples(dataset: MeditodDataset, split: Split, protocol?: ProtocolName): Example[];
  predict(
    example: Example,
    modules: BenchModules,
    options: CallOptions,
  ): Promise<{ prediction: unknown; info: ModuleCallInfo }>;
  /** Scores predictions lines (the judge matches non-medical attributes, for the suites that have them). */
  score(
    dataset: MeditodDataset,
    lines: readonly PredictionLine[],
    judge?: AttributeJudge,
    models?: ModelMetricRequest,
  ): Promise<Scores>;
  resultCells(scores: Scores): string[];
  reportSection(context: MeditodReportContext<Scores>): ReportSection;
  /** The paper's rows for it (none for a suite the paper does not report). */
  readonly baselines?: readonly PaperBaseline[];
  /** The lines whose frames or actions could not be read; absent when any output is scored as it is. */
  readonly formatErrors?: (lines: readonly PredictionLine[], dataset: MeditodDataset) => FormatError[];
  readonly scoreCommand: Omit<ScoreCommand<Scores>, "run">;
}

/** The gold history as the modules see it: speaker and text. */
export function historyTurns(history: readonly Utterance[]): DialogueTurn[] {
  return history.map(({ speaker, text }) => ({ speaker, text }));
}

/** The module a suite predicts with, or an error naming it. */
export function moduleOf<M>(module: M | undefined, name: string): M {
  if (!module) throw new AnamnesisError("INVALID_ARGUMENT", `this suite needs the ${name} module`);
  return module;
}

/** `anamnesis score <id>` for a MediTOD suite: the predictions file, then the data, then the judge if it takes one. */
function scoreRun<Scores, Example extends MeditodTurn>(
  variant: MeditodVariant<string, Scores, Example>,
): ScoreCommand<Scores>["run"] {
  return async ({ predictions, data, judge, models }) => {
    const lines = readPredictionLines(predictions);
    const dataset = loadMeditod(data);
    const resolved = variant.scoreCommand.judged ? await judge() : undefined;
    return inPredictionsFile(predictions, () => variant.score(dataset, lines, resolved, models));
  };
}

/** A MediTOD suite from what makes it different. */
export function meditodSuite<const Id extends string, Scores, Example extends MeditodTurn>(
  variant: MeditodVariant<Id, Scores, Example>,
): Suite<Id, Scores> {
  const { formatErrors } = variant;
  return {
    id: variant.id,
    family: MEDITOD_FAMILY,
    data: MEDITOD_DATA.id,
    module: variant.module,
    protocol: variant.protocol,
    format: MEDITOD_LINES,
    examples: (dataset, split, protocol) =>
      variant.examples(meditodDataset(dataset), split as Split, protocol).map((example) => ({
        key: `${example.dialogueId}:${example.turn}`,
        fields: { dialogue_id: example.dialogueId, turn: example.turn },
        predict: (modules, options) => variant.predict(example, modules, options),
      })),
    score: (dataset, lines, judge, models) =>
      variant.score(meditodDataset(dataset), lines as readonly PredictionLine[], judge, models),
    resultCells: (scores) => variant.resultCells(scores),
    reportSection: (context) => variant.reportSection({ ...context, dataset: meditodDataset(context.dataset) }),
    baselines: variant.baselines ?? [],
    ...(formatErrors
      ? { formatErrors: (lines, dataset) => formatErrors(lines as readonly PredictionLine[], meditodDataset(dataset)) }
      : {}),
    scoreCommand: { ...variant.scoreCommand, run: scoreRun(variant) },
  };
}
