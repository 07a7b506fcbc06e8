import type { NoteDatasetInfo } from "../../src/data/note-dataset.ts";
import type { PartialRun } from "./partial-run.ts";

/**
 * What a bench run produced (results.json): the scores per suite and the run's record. Its own file, so
 * that the suites, which describe their part of the results, and the runner, which makes them, both
 * read it without importing each other.
 */

/** What one suite's predictions cost: counts, latency, tokens, prompt size and exemplars. */
export interface SuiteRunStats {
  predicted: number;
  resumed: number;
  cached: number;
  format_errors: number;
  repaired: number;
  latency_ms: { mean: number; p95: number };
  tokens: { input: number; output: number };
  prompt_tokens: { mean: number; max: number } | null;
  exemplars: { mean: number; min: number } | null;
}

/** What results.json and the report say about the data of a clinical-note run. */
export interface NoteRunData extends NoteDatasetInfo {
  readonly split: string;
  readonly documents: number;
}

/** What a bench run produced: the scores per suite and the run's record (results.json); `Id` is a suite id. */
export interface BenchResults<Id extends string = string> {
  suites: Partial<Record<Id, unknown>>;
  backend: string;
  split: string;
  /** Clinical-note runs only: what the data is and whether lm-eval's numbers are comparable. */
  dataset?: NoteRunData;
  protocol: Record<string, unknown>;
  /** Embedded-engine runs on dialogues it was shaped on: why the figures are not a plain result; else null. */
  tuned_on_split?: string | null;
  prompt_versions: Record<string, string>;
  git_revision: string | null;
  started: string;
  finished: string;
  limit: number | null;
  shard: string | null;
  runs: Partial<Record<Id, SuiteRunStats>>;
  /** Set when `merge --allow-partial` scored fewer examples than the run asked for: what is missing. */
  partial?: PartialRun;
}
