import type { Command } from "commander";
import { exactJudge, type AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import { createAttributeJudge, describeBackendIds } from "../../src/backends/index.ts";
import type { DatasetSource } from "../../eval/shared/bench-dataset.ts";
import { SUITE_REGISTRY } from "../../eval/registry.ts";
import type { Suite } from "../../eval/shared/suite.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { printJson } from "../shared/output.ts";

/** The flags of `anamnesis score <suite>`; the judge's only for the suites that take one. */
interface ScoreFlags {
  predictions: string;
  data?: string;
  split?: string;
  judge?: string;
  baseUrl?: string;
  cache?: boolean;
  json?: boolean;
}

/** `exact`, or an LLM judge on a backend (`openai:<model>`, `ollama:<model>`, …). */
async function resolveJudge(flags: ScoreFlags): Promise<AttributeJudge> {
  if (flags.judge === undefined || flags.judge === exactJudge.id) return exactJudge;
  return createAttributeJudge(flags.judge, {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.cache === false ? { noCache: true } : {}),
  });
}

/** The options of a suite that matches non-medical attributes: the judge, its server, its cache, provider plug-ins. */
function addJudgeOptions(command: Command): Command {
  return command
    .option(
      "--judge <id>",
      `non-medical attribute matching: exact (official exact match), or an LLM judge's backend id (the paper's prompt): ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
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
  if (scoreCommand.judged) addJudgeOptions(command);
  command.option("--json", "print JSON (unrounded)").action(async (flags: ScoreFlags) => {
    const scores = await scoreCommand.run({
      predictions: flags.predictions,
      ...(flags.data !== undefined ? { data: flags.data } : {}),
      ...(flags.split !== undefined ? { split: flags.split } : {}),
      judge: () => resolveJudge(flags),
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
