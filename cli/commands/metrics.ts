import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { scoreCorpus, type TextPair } from "../../src/metrics/pair-metrics.ts";
import { writePairLines } from "../../src/metrics/pair-lines.ts";
import { printJson } from "../shared/output.ts";
import { readJsonLines } from "../../src/data/json-lines.ts";
import { inputName } from "../../src/data/input-file.ts";

/** One input line: `{"id", "prediction", "reference"}`; `id` is echoed back as given. */
interface InputPair extends TextPair {
  rawId: string | number;
}

/**
 * Reads a JSONL file of pairs. Every line is validated before anything is scored, so a bad line fails
 * the whole command (exit 2) instead of leaving partial output. Blank lines are skipped.
 */
export function readPairsFile(path: string): InputPair[] {
  const source = inputName(path);
  return readJsonLines(path, "input file").map(({ line, value: json }) => {
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${source}:${line}: expected an object {"id", "prediction", "reference"}`,
      );
    }
    const record = json as Record<string, unknown>;
    const id = record.id;
    if (typeof id !== "string" && typeof id !== "number") {
      throw new AnamnesisError("INVALID_ARGUMENT", `${source}:${line}: "id" must be a string or a number`);
    }
    for (const field of ["prediction", "reference"] as const) {
      if (typeof record[field] !== "string") {
        throw new AnamnesisError("INVALID_ARGUMENT", `${source}:${line}: "${field}" must be a string`);
      }
    }
    return {
      rawId: id,
      id: String(id),
      prediction: record.prediction as string,
      reference: record.reference as string,
    };
  });
}

/** Adds `anamnesis metrics pairs|corpus`: BLEU / ROUGE / lm-eval values with parity to the Python references. */
export function registerMetricsCommands(program: Command): void {
  const metrics = program
    .command("metrics")
    .description(
      "Text-generation metrics (HF/sacrebleu/nltk BLEU, rouge_score, lm-eval, MediTOD) for prediction/reference pairs.",
    );

  metrics
    .command("pairs")
    .description("Every metric for each pair: JSONL in ({id, prediction, reference}), JSONL out ({id, ...metrics}).")
    .requiredOption(
      "--input <file>",
      'JSONL, one pair per line: {"id", "prediction", "reference"}; - reads standard input',
    )
    .action(async (options: { input: string }) => {
      await writePairLines(readPairsFile(options.input), (text) => process.stdout.write(text));
    });

  metrics
    .command("corpus")
    .description("Corpus-level values over all pairs of the file (no bootstrap): one JSON object.")
    .requiredOption(
      "--input <file>",
      'JSONL, one pair per line: {"id", "prediction", "reference"}; - reads standard input',
    )
    .action((options: { input: string }) => {
      printJson(scoreCorpus(readPairsFile(options.input)));
    });
}
