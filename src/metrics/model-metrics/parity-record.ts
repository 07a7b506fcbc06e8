/**
 * Comparison records: the evidence that a native model metric gives the reference's figures on a
 * user's machine. `anamnesis metrics compare` scores the same pairs both ways and appends an entry to a
 * JSON file the user keeps (by default `anamnesis-parity.json` in the model directory; any file given
 * with `--parity-record`, e.g. one committed beside their runs). A native result is labelled
 * "native" until the file holds an entry that agrees for the same model files (fingerprint), the same
 * metric settings and the same tokenization; then its label names that comparison.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../../foundation/errors.ts";

/** One comparison of the native path with the reference. */
export const parityEntrySchema = z.object({
  metric: z.enum(["bertscore", "bleurt"]),
  /** The metric's settings (`roberta-large_L17_no-idf`) or the BLEURT checkpoint's name. */
  settings: z.string(),
  model_fingerprint: z.string(),
  /** BERTScore: whether the native tokenization added bert-score's prefix space. */
  prefix_space: z.boolean().optional(),
  /** What the reference reported: bert-score's hash code or the BLEURT checkpoint, and versions. */
  reference: z.object({ identity: z.string(), versions: z.record(z.string(), z.string().nullable()) }),
  pairs: z.number().int().positive(),
  /** The largest |native − reference| over every reported value (P, R and F1; or BLEURT's scores). */
  max_abs_difference: z.number(),
  tolerance: z.number(),
  agrees: z.boolean(),
  recorded: z.string(),
});

/** One comparison entry. */
export type ParityEntry = z.infer<typeof parityEntrySchema>;

const parityFileSchema = z.object({ comparisons: z.array(parityEntrySchema) });

/** The default record file of a model directory. */
export function defaultParityFile(modelDir: string): string {
  return join(modelDir, "anamnesis-parity.json");
}

/** The entries of a record file (none when it does not exist); a malformed file is one line. */
export function readParityEntries(file: string): ParityEntry[] {
  if (!existsSync(file)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = parityFileSchema.safeParse(json);
  if (!parsed.success)
    throw new AnamnesisError("INVALID_DATA", `${file} is not a comparison record file ({"comparisons": [...]})`);
  return parsed.data.comparisons;
}

/** Appends an entry to the record file. */
export function appendParityEntry(file: string, entry: ParityEntry): void {
  const comparisons = [...readParityEntries(file), entry];
  writeFileSync(file, `${JSON.stringify({ comparisons }, null, 2)}\n`);
}

/** What a native result must match for an entry to vouch for it. */
export interface ParityKey {
  readonly metric: ParityEntry["metric"];
  readonly settings: string;
  readonly model_fingerprint: string;
  readonly prefix_space?: boolean;
}

/** The latest agreeing entry for exactly this native computation, if the file holds one. */
export function findAgreement(file: string, key: ParityKey): ParityEntry | undefined {
  return readParityEntries(file)
    .filter(
      (entry) =>
        entry.agrees &&
        entry.metric === key.metric &&
        entry.settings === key.settings &&
        entry.model_fingerprint === key.model_fingerprint &&
        entry.prefix_space === key.prefix_space,
    )
    .at(-1);
}

/** The label of a native result: "native", or the comparison that vouches for it. */
export function nativeLabel(agreement: ParityEntry | undefined): string {
  if (!agreement) return "native";
  return `native, matches the reference (${agreement.reference.identity}) on ${agreement.pairs} pairs to ${agreement.max_abs_difference.toExponential(1)} (recorded ${agreement.recorded.slice(0, 10)})`;
}
