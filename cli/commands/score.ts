import type { Command } from "commander";
import { exactJudge, type AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import { createAttributeJudge, describeBackendIds } from "../../src/backends/index.ts";
import type { DatasetSource } from "../../eval/shared/bench-dataset.ts";
import { SUITE_REGISTRY } from "../../eval/registry.ts";
import type { Suite } from "../../eval/shared/suite.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { addModelMetricOptions, modelMetricRequest, type ModelMetricFlags } from "../shared/model-metric-options.ts";
import { printJson } from "../shared/output.ts";

/** The flags of `anamnesis score <suite>`; the judge's and the model metrics' only for the suites that take them. */
interface ScoreFlags extends ModelMetricFlags {
  predictions: string;
  data?: string;
  split?: string;
  judge?: string;
  baseUrl?: string;
  cache?: boolean;
  json?: boolean;
}

/** `exact`, or an LLM judge on a backend (`openai:<model>`, `ollama:<model>`, …): the suite's family's own judge where it has one. */
async function resolveJudge(flags: ScoreFlags, suite: Suite): Promise<AttributeJudge> {
  if (flags.judge === undefined || flags.judge === exactJudge.id) return exactJudge;
  return (suite.family.createJudge ?? createAttributeJudge)(flags.judge, {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.cache === false ? { noCache: true } : {}),
  });
}

/** The options of a suite that matches non-medical attributes: the judge, its server, its cache, provider plug-ins. */
function addJudgeOptions(command: Command, suite: Suite): Command {
  const what = suite.family.createJudge
    ? "diagnoses: exact (the offline judge alone), or the backend id of an LLM judge shown beside it"
    : "non-medical attribute matching: exact (official exact match), or an LLM judge's backend id (the paper's prompt)";
  return command
    .option(
      "--judge <id>",
      `${what}: ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
      "exact",
    )
    .option("--base-url <url>", "the judge's server base URL (OpenAI-compatible …/v1, or the Ollama host)")
    .option("--no-cache", "do not reuse cached judge verdicts")
    .option(...PROVIDER_MODULE_OPTION);
}

/** `anamnesis score <suite id>`, as the suite declares it. */
function registerSuiteScoreCommand(score: Command, suite: Suite, data: DatasetSource): void {
  const { scoreCommand } = suite;
  const command = score
    .command(suite.id)
    .description(scoreCommand.description)
    .requiredOption("--predictions <file>", scoreCommand.predictionsHelp)
    .option(data.scoreDataOption.flags, data.scoreDataOption.help);
  if (scoreCommand.splitHelp !== undefined) command.option("--split <split>", scoreCommand.splitHelp);
  if (scoreCommand.judged) addJudgeOptions(command, suite);
  addModelMetricOptions(command, scoreCommand.modelMetrics ?? []);
  command.option("--json", "print JSON (unrounded)").action(async (flags: ScoreFlags) => {
    const scores = await scoreCommand.run({
      predictions: flags.predictions,
      ...(flags.data !== undefined ? { data: flags.data } : {}),
      ...(flags.split !== undefined ? { split: flags.split } : {}),
      judge: () => resolveJudge(flags, suite),
      models: modelMetricRequest(flags),
    });
    if (flags.json) printJson(scores);
    else process.stdout.write(scoreCommand.print(scores));
  });
}

/** Registers `anamnesis score` and one subcommand per registered suite. */
export function registerScoreCommands(program: Command): void {
  const score = program.command("score").description("Score a predictions file exactly as the official scripts do.");
  for (const suite of SUITE_REGISTRY.suites)
    registerSuiteScoreCommand(score, suite, SUITE_REGISTRY.dataset(suite.data));
}
