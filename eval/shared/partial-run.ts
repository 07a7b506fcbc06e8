/** What a partial merge lacks; every output of such a run says so. */
export interface PartialRun {
  /** Per suite id, the examples the run asked for that no merged directory predicted. */
  readonly missing: Readonly<Partial<Record<string, number>>>;
  /** The shards merged, and the shards asked for (e.g. ["1/4", "3/4"] of 4). */
  readonly shards: readonly string[];
  readonly of: number | null;
}

/** One sentence for reports and the terminal: a partial run's scores do not cover the whole split. */
export function describePartial(partial: PartialRun): string {
  const missing = Object.entries(partial.missing)
    .map(([suite, count]) => `${suite} ${count}`)
    .join(", ");
  const shards =
    partial.of !== null ? `shards ${partial.shards.join(", ")} of ${partial.of}` : `${partial.shards.length} runs`;
  return `PARTIAL RUN (merged with --allow-partial from ${shards}): examples missing: ${missing || "none"}; these scores do not cover the whole split.`;
}
