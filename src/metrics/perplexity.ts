/**
 * lm-evaluation-harness's perplexity metrics for `loglikelihood_rolling` tasks (`mts_dialog_perplexity`,
 * `medtext_perplexity`): each document contributes its total log-likelihood (natural log) with the
 * number of words and of UTF-8 bytes of its target (`utils_perplexity.process_results`), and the corpus
 * figures are weighted (`lm_eval/api/metrics.py`):
 * - word_perplexity = exp(−Σ ll / Σ words), byte_perplexity = exp(−Σ ll / Σ bytes),
 * - bits_per_byte = −(Σ ll / Σ bytes) / ln 2.
 * Sums run left to right as Python's `sum` does.
 */
import { isPySpace } from "./python-text.ts";

/** One document's contribution: `(loglikelihood, _words)` and `(loglikelihood, _bytes)`. */
export interface LoglikelihoodItem {
  readonly logLikelihood: number;
  readonly words: number;
  readonly bytes: number;
}

export interface PerplexityScores {
  samples: number;
  word_perplexity: number;
  byte_perplexity: number;
  bits_per_byte: number;
}

/**
 * `len(re.split(r"\s+", text))`: one more than the number of runs of (Python) whitespace, so leading or
 * trailing whitespace counts an empty word, and the empty string counts 1.
 */
export function countWords(text: string): number {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const space = isPySpace(text.charCodeAt(i));
    if (space && !inRun) runs += 1;
    inRun = space;
  }
  return runs + 1;
}

/** `len(text.encode("utf-8"))`. */
export function countBytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function loglikelihoodItem(target: string, logLikelihood: number): LoglikelihoodItem {
  return { logLikelihood, words: countWords(target), bytes: countBytes(target) };
}

/** `weighted_mean`: Σ a / Σ b; NaN when there are no items (lm-eval would raise). */
function weightedMean(items: readonly LoglikelihoodItem[], weight: "words" | "bytes"): number {
  if (items.length === 0) return NaN;
  let numerator = 0;
  let denominator = 0;
  for (const item of items) {
    numerator += item.logLikelihood;
    denominator += item[weight];
  }
  return numerator / denominator;
}

/** The three corpus figures of lm-eval's perplexity tasks. */
export function aggregatePerplexity(items: readonly LoglikelihoodItem[]): PerplexityScores {
  const perWord = weightedMean(items, "words");
  const perByte = weightedMean(items, "bytes");
  return {
    samples: items.length,
    word_perplexity: Math.exp(-perWord),
    byte_perplexity: Math.exp(-perByte),
    bits_per_byte: -perByte / Math.LN2,
  };
}
