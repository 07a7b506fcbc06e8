/**
 * The two outputs of a timing script: lines for a person, and with `--json` one JSON object that
 * `bench/measurements.ts` reads. With `--json` the lines go to stderr, so a person watching a long
 * run still sees its progress while stdout holds nothing but the JSON.
 */

/** Where a timing script writes. */
export interface BenchOutput {
  /** Whether `--json` was given. */
  readonly json: boolean;
  /** One line for a person (stdout, or stderr under `--json`). */
  line(text?: string): void;
  /** The script's figures: printed as JSON on stdout under `--json`, ignored otherwise. */
  result(figures: unknown): void;
}

/** A script's output, reading `--json` from its own command line. */
export function benchOutput(argv: readonly string[] = process.argv): BenchOutput {
  const json = argv.includes("--json");
  return {
    json,
    line: (text = "") => (json ? process.stderr : process.stdout).write(`${text}\n`),
    result: (figures) => {
      if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    },
  };
}

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
