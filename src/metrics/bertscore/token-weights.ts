/**
 * BERTScore's token weights and baseline rescaling, as bert-score computes them (`score.py`,
 * `utils.get_idf_dict`):
 *
 * - without idf, every token weighs 1 except the tokenizer's `cls_token_id` and `sep_token_id`, which
 *   weigh 0 wherever they occur;
 * - with idf, over the N references of the call: a token id counted once per reference it occurs in
 *   (c of them) weighs log((N + 1) / (c + 1)), and an id no reference holds weighs log(N + 1). The
 *   special tokens, in every reference, weigh log(1) = 0 that way;
 * - rescaling with a baseline file (bert-score's `rescale_baseline/<lang>/<model>.tsv`: a CSV header
 *   `LAYER,P,R,F`, one row per layer) takes the row at position `layer` (pandas `iloc`) and maps each
 *   score x to (x − b) / (1 − b), with b as float32.
 */
import { readFileSync } from "node:fs";
import { AnamnesisError } from "../../foundation/errors.ts";
import type { BertScoreTriple } from "./greedy-matching.ts";

/** A token weighting: the weight of a token id. */
export type TokenWeighting = (id: number) => number;

/** Weight 1 for every token but the two special ones. */
export function uniformWeighting(specialIds: { readonly cls: number; readonly sep: number }): TokenWeighting {
  return (id) => (id === specialIds.cls || id === specialIds.sep ? 0 : 1);
}

/** Inverse document frequency over the references' token ids, with bert-score's +1 smoothing. */
export function idfWeighting(references: ReadonlyArray<readonly number[]>): TokenWeighting {
  const documents = new Map<number, number>();
  for (const ids of references) for (const id of new Set(ids)) documents.set(id, (documents.get(id) ?? 0) + 1);
  const total = references.length;
  const unseen = Math.log((total + 1) / 1);
  const weights = new Map<number, number>();
  for (const [id, count] of documents) weights.set(id, Math.log((total + 1) / (count + 1)));
  return (id) => weights.get(id) ?? unseen;
}

/** A baseline row: the P, R and F that rescaling subtracts. */
export type Baseline = BertScoreTriple;

/** The baseline of `layer` from a bert-score baseline file. */
export function readBaseline(path: string, layer: number): Baseline {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new AnamnesisError("FILE_NOT_FOUND", `baseline file not found: ${path}`);
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines[0]?.replace(/\s/g, "") !== "LAYER,P,R,F")
    throw new AnamnesisError("INVALID_DATA", `${path}: not a bert-score baseline file (its header is not LAYER,P,R,F)`);
  const row = lines[1 + layer]?.split(",").map(Number);
  if (row?.length !== 4 || row.some(Number.isNaN))
    throw new AnamnesisError("INVALID_DATA", `${path}: no baseline row for layer ${layer}`);
  return { precision: Math.fround(row[1]!), recall: Math.fround(row[2]!), f1: Math.fround(row[3]!) };
}

/** (x − b) / (1 − b) for each of P, R and F. */
export function rescale(scores: BertScoreTriple, baseline: Baseline): BertScoreTriple {
  return {
    precision: (scores.precision - baseline.precision) / (1 - baseline.precision),
    recall: (scores.recall - baseline.recall) / (1 - baseline.recall),
    f1: (scores.f1 - baseline.f1) / (1 - baseline.f1),
  };
}
