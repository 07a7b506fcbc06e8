import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { PerplexityScores } from "../../../src/metrics/perplexity.ts";
import { formatTable } from "../../shared/terminal-table.ts";
import { scoreLoglikelihoodPredictions } from "./note-scoring.ts";
import { noteSuite, type NoteSuiteName } from "./note-suite.ts";

/**
 * An lm-eval `*_perplexity` suite: the log-likelihood of each document's target with nothing before it
 * (`loglikelihood_rolling`), aggregated into word and byte perplexity and bits per byte.
 */
export function perplexitySuite<const Id extends string>(name: NoteSuiteName<Id>) {
  const { id, task } = name;
  return noteSuite(name, {
    module: "likelihood",
    protocol: `lm-eval's ${task}_perplexity: the log-likelihood of each target with nothing before it (loglikelihood_rolling); word and byte perplexity and bits per byte weighted over documents`,
    predict: (document) => async (modules, options) => {
      if (!modules.likelihood)
        throw new AnamnesisError("INVALID_ARGUMENT", `${id} needs a backend that scores log-likelihoods`);
      const { logLikelihood, ...info } = await modules.likelihood.loglikelihoodRolling(document.target, options);
      return { prediction: logLikelihood, info };
    },
    score: (dataset, lines) => scoreLoglikelihoodPredictions(dataset, lines),
    resultCells: (perplexity: PerplexityScores) => [
      String(perplexity.samples),
      `word ppl ${perplexity.word_perplexity.toFixed(2)}`,
      `byte ppl ${perplexity.byte_perplexity.toFixed(4)}`,
      `bits/byte ${perplexity.bits_per_byte.toFixed(4)}`,
    ],
    reportSection: ({ scores: perplexity, ourLabel }) => ({
      tables: [
        {
          title: `${name.title} (${perplexity.samples} documents; lower is better)`,
          header: ["model", "word perplexity", "byte perplexity", "bits per byte"],
          rows: [
            [
              ourLabel,
              perplexity.word_perplexity.toFixed(2),
              perplexity.byte_perplexity.toFixed(4),
              perplexity.bits_per_byte.toFixed(4),
            ],
          ],
          ours: 0,
        },
      ],
      charts: [],
    }),
    scoreCommand: {
      description: `lm-eval ${id.replace(/-/g, "_")}: word and byte perplexity and bits per byte from each target's log-likelihood.`,
      predictionsHelp:
        "JSONL, one line per document: {id, prediction: the target's log-likelihood}; - reads standard input",
      print: ({ samples, word_perplexity, byte_perplexity, bits_per_byte }) =>
        `${id}\n${formatTable(["documents", "word perplexity", "byte perplexity", "bits per byte"], [[String(samples), word_perplexity.toFixed(2), byte_perplexity.toFixed(4), bits_per_byte.toFixed(4)]])}\n`,
    },
  });
}
