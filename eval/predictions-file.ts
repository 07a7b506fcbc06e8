import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { AnamnesisError } from "../src/errors.ts";
import { describeIssues } from "../src/cmas/schemas.ts";

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
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `predictions file not found: ${path}`);
  const lines: PredictionLine[] = [];
  const seen = new Map<string, number>();
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((text, index) => {
      const line = index + 1;
      if (text.trim() === "") return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new AnamnesisError("INVALID_JSON", `${path}:${line}: not valid JSON (${(error as Error).message})`);
      }
      const parsed = predictionLineSchema.safeParse(json);
      if (!parsed.success) throw new AnamnesisError("INVALID_JSON", `${path}:${line}: ${describeIssues(parsed.error)}`);
      if (!("prediction" in (json as object))) throw new AnamnesisError("INVALID_JSON", `${path}:${line}: prediction: missing`);
      const key = `${parsed.data.dialogue_id}\u0000${parsed.data.turn}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        throw new AnamnesisError("INVALID_ARGUMENT", `${path}:${line}: dialogue ${parsed.data.dialogue_id} turn ${parsed.data.turn} was already predicted on line ${earlier}`);
      }
      seen.set(key, line);
      lines.push({ ...parsed.data, line });
    });
  return lines;
}
