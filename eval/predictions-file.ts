import { z } from "zod";
import { AnamnesisError } from "../src/errors.ts";
import { describeIssues } from "../src/cmas/schemas.ts";
import { readJsonLines } from "../src/data/json-lines.ts";

/**
 * Predictions files: JSONL, one line per scored turn, `{"dialogue_id": "407", "turn": 5, "prediction": …}`
 * (`turn` is the utterance index). Lines may carry more fields (raw model text, latency, …); they are
 * kept but not needed for scoring.
 */
export const predictionLineSchema = z.looseObject({
  dialogue_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  turn: z.number().int().nonnegative(),
  prediction: z.unknown(),
});
export type PredictionLine = z.infer<typeof predictionLineSchema> & { line: number };

/** Reads a predictions file; malformed lines raise an error that names the file and line number. */
export function readPredictionLines(path: string): PredictionLine[] {
  const seen = new Map<string, number>();
  return readJsonLines(path, "predictions file").map(({ line, value }) => {
    const parsed = predictionLineSchema.safeParse(value);
    if (!parsed.success) throw new AnamnesisError("INVALID_JSON", `${path}:${line}: ${describeIssues(parsed.error)}`);
    if (!("prediction" in (value as object))) throw new AnamnesisError("INVALID_JSON", `${path}:${line}: prediction: missing`);
    const key = `${parsed.data.dialogue_id}\u0000${parsed.data.turn}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new AnamnesisError("INVALID_ARGUMENT", `${path}:${line}: dialogue ${parsed.data.dialogue_id} turn ${parsed.data.turn} was already predicted on line ${earlier}`);
    }
    seen.set(key, line);
    return { ...parsed.data, line };
  });
}
