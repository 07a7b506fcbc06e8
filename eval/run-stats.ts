import type { SuiteRunStats } from "./shared/bench-results.ts";
import type { AnyPredictionLine } from "./shared/predictions-file.ts";

/** What a suite's predictions cost, read back from its predictions lines (results.json's `runs`). */

function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Counts, latency, tokens, prompt size and exemplars of a suite's lines; `resumed` of them came from an earlier run. */
export function suiteStats(lines: readonly AnyPredictionLine[], resumed: number): SuiteRunStats {
  const number = (line: AnyPredictionLine, key: string) => (typeof line[key] === "number" ? line[key] : undefined);
  const latencies = lines.map((line) => number(line, "latency_ms") ?? 0);
  const promptTokens = lines
    .map((line) => number(line, "prompt_tokens"))
    .filter((value): value is number => value !== undefined);
  const exemplarCounts = lines
    .map((line) => (Array.isArray(line.exemplars) ? line.exemplars.length : undefined))
    .filter((value): value is number => value !== undefined);
  const tokens = lines.map((line) => line.tokens as { input?: number; output?: number } | null | undefined);
  return {
    predicted: lines.length,
    resumed,
    cached: lines.filter((line) => line.cached === true).length,
    format_errors: lines.filter((line) => typeof line.format_error === "string").length,
    repaired: lines.filter((line) => line.repaired === true).length,
    latency_ms: { mean: mean(latencies), p95: percentile(latencies, 0.95) },
    tokens: {
      input: tokens.reduce((sum, t) => sum + (t?.input ?? 0), 0),
      output: tokens.reduce((sum, t) => sum + (t?.output ?? 0), 0),
    },
    prompt_tokens: promptTokens.length > 0 ? { mean: mean(promptTokens), max: Math.max(...promptTokens) } : null,
    exemplars: exemplarCounts.length > 0 ? { mean: mean(exemplarCounts), min: Math.min(...exemplarCounts) } : null,
  };
}
