import * as z from "zod";
import type { ConsultationRecord } from "../../../src/simulator/consultation/consultation-loop.ts";
import { ARMS, type Arm } from "../../../src/simulator/consultation/controls.ts";
import type { ConsultTurn } from "../../../src/simulator/consultation/consult-roles.ts";
import type { PredictionsFormat } from "../../shared/predictions-file.ts";

/**
 * The consultation suites' predictions lines: one per case, `{"id": "12", "prediction": {"floor": …,
 * "doctor": …, "ceiling": …}}`, each arm a consultation's record: its answer, how it ended, its
 * counts and its transcript (each turn: who spoke, what was said, the move, the facts revealed, and
 * the CMAS state after a patient turn — written out when it changed, else `state_unchanged: true`).
 * `anamnesis score consult-…` re-scores them.
 */

const turnSchema = z.looseObject({
  speaker: z.enum(["doctor", "patient", "measurement"]),
  text: z.string(),
  move: z.enum(["question", "request", "answer"]).optional(),
  revealed: z.array(z.string()).optional(),
  state: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
  /** The state is the last one written: the line leaves it out. */
  state_unchanged: z.literal(true).optional(),
  format_error: z.string().optional(),
});

/** One arm's consultation as a predictions line keeps it. */
export const armRecordSchema = z.looseObject({
  answer: z.string().nullable(),
  ending: z.enum(["answered", "timeout", "format error", "patient failed"]),
  timeout: z.boolean(),
  questions: z.number().int().nonnegative(),
  requests: z.number().int().nonnegative(),
  format_error: z.string().optional(),
  failure: z.string().optional(),
  turns: z.array(turnSchema),
});
/** An arm's record as read back. */
export type ArmRecord = z.infer<typeof armRecordSchema>;

/** A case's three consultations. */
export const consultPredictionSchema = z.strictObject(
  Object.fromEntries(ARMS.map((arm) => [arm, armRecordSchema])) as Record<Arm, typeof armRecordSchema>,
);

/** A consultation suite's line: the case id and its three consultations. */
export const consultLineSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  prediction: consultPredictionSchema,
});
export type ConsultLine = z.infer<typeof consultLineSchema> & { line: number };

/** The consultation suites' lines, keyed by case id. */
export const CONSULT_LINES: PredictionsFormat<z.infer<typeof consultLineSchema>> = {
  schema: consultLineSchema,
  key: (line) => line.id,
  describe: (line) => `case ${line.id}`,
  columns: [{ field: "id", label: "case" }],
};

/** Turns as a line keeps them: a patient turn's state written out only when it changed since the last one. */
function compactTurns(turns: readonly ConsultTurn[]): Array<ConsultTurn & { state_unchanged?: true }> {
  let last = "";
  return turns.map((turn) => {
    if (turn.state === undefined) return turn;
    const text = JSON.stringify(turn.state);
    const changed = text !== last;
    last = text;
    if (changed) return turn;
    const { state: _same, ...rest } = turn;
    return { ...rest, state_unchanged: true };
  });
}

/** A consultation's record as a line keeps it (without what it cost, which the line's own fields say). */
export function armRecordOf(record: ConsultationRecord): ArmRecord {
  const { cost: _cost, turns, ...rest } = record;
  return { ...rest, turns: compactTurns(turns) } as ArmRecord;
}

/** The turns with every tracked state written out (the last one again where the line left it out). */
export function expandedTurns(turns: ArmRecord["turns"]): ArmRecord["turns"] {
  let last: ArmRecord["turns"][number]["state"];
  return turns.map((turn) => {
    if (turn.state !== undefined) last = turn.state;
    if (!turn.state_unchanged) return turn;
    const { state_unchanged: _unchanged, ...rest } = turn;
    return { ...rest, state: last };
  });
}
