import * as z from "zod";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { describeIssues } from "../../src/cmas/schemas.ts";
import { streamJsonLines } from "../../src/data/json-lines.ts";

/**
 * Predictions files: JSONL, one line per scored example. MediTOD suites: one line per turn,
 * `{"dialogue_id": "407", "turn": 5, "prediction": …}` (`turn` is the utterance index); clinical-note
 * suites: one line per document, `{"id": "valid-17", "prediction": …}`. Lines may carry more fields (raw
 * model text, latency, …); they are kept but not needed for scoring.
 */
export const predictionLineSchema = z.looseObject({
  dialogue_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  turn: z.number().int().nonnegative(),
  prediction: z.unknown(),
});
/** A parsed MediTOD predictions line, with its 1-based line number in the file. */
export type PredictionLine = z.infer<typeof predictionLineSchema> & { line: number };

/** Clinical-note suites: one line per document, `{"id": "valid-17", "prediction": …}`. */
export const notePredictionLineSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  prediction: z.unknown(),
});
export type NotePredictionLine = z.infer<typeof notePredictionLineSchema> & { line: number };

/** Any suite's predictions line, with its 1-based line number. */
export type AnyPredictionLine = { readonly prediction: unknown; readonly line: number } & Record<string, unknown>;

/** How a suite's predictions lines look (`T`: a parsed line) and what identifies one. */
export interface PredictionsFormat<T extends { prediction: unknown } = { prediction: unknown }> {
  readonly schema: z.ZodType<T>;
  /** Unique per example: what resuming, merging and duplicate checks match on. */
  key(line: T): string;
  /** The example in words, for error messages. */
  describe(line: T): string;
  /** The fields that locate an example, with their column labels (the report's format-error table). */
  readonly columns: ReadonlyArray<{ readonly field: string; readonly label: string }>;
}

/** MediTOD suites' lines: `{dialogue_id, turn, prediction}`, one per turn. */
export const MEDITOD_LINES: PredictionsFormat<z.infer<typeof predictionLineSchema>> = {
  schema: predictionLineSchema,
  key: (line) => `${line.dialogue_id}:${line.turn}`,
  describe: (line) => `dialogue ${line.dialogue_id} turn ${line.turn}`,
  columns: [
    { field: "dialogue_id", label: "dialogue" },
    { field: "turn", label: "turn" },
  ],
};

/** Clinical-note suites' lines: `{id, prediction}`, one per document. */
export const NOTE_LINES: PredictionsFormat<z.infer<typeof notePredictionLineSchema>> = {
  schema: notePredictionLineSchema,
  key: (line) => line.id,
  describe: (line) => `document ${line.id}`,
  columns: [{ field: "id", label: "document" }],
};

/**
 * Reads a predictions file as a stream; a malformed line, or an example predicted twice, stops the read
 * at that line with an error naming the file and the line (the keys seen so far are the only memory
 * the duplicate check needs).
 */
export function readLinesOf<T extends { prediction: unknown }>(
  path: string,
  format: PredictionsFormat<T>,
): Array<T & { line: number }> {
  const seen = new Map<string, number>();
  const lines: Array<T & { line: number }> = [];
  streamJsonLines(path, "predictions file", (value, line) => {
    const parsed = format.schema.safeParse(value);
    if (!parsed.success) throw new AnamnesisError("INVALID_JSON", `${path}:${line}: ${describeIssues(parsed.error)}`);
    if (!("prediction" in (value as object)))
      throw new AnamnesisError("INVALID_JSON", `${path}:${line}: prediction: missing`);
    const key = format.key(parsed.data);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${path}:${line}: ${format.describe(parsed.data)} was already predicted on line ${earlier}`,
      );
    }
    seen.set(key, line);
    lines.push({ ...parsed.data, line });
  });
  return lines;
}

/** Runs `score` on lines read from `path`; its "line N: …" errors become "`path`:N: …". */
export async function inPredictionsFile<R>(path: string, score: () => R | Promise<R>): Promise<R> {
  try {
    return await score();
  } catch (error) {
    if (error instanceof AnamnesisError && /^line \d+: /.test(error.message))
      throw new AnamnesisError(error.code, `${path}:${error.message.slice(5)}`, { cause: error });
    throw error;
  }
}

/** Reads a MediTOD predictions file (`dialogue_id`, `turn`, `prediction`). */
export function readPredictionLines(path: string): PredictionLine[] {
  return readLinesOf(path, MEDITOD_LINES);
}
