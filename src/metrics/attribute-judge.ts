/**
 * Decides whether a predicted non-medical attribute value means the same as a gold one
 * (MediTOD scores non-medical attributes such as onset or duration this way).
 */
export interface AttributeJudge {
  /** `exact`, or the backend id of an LLM judge, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** One verdict per pair, in order: true when the two phrases are judged equivalent. */
  equivalent(
    pairs: ReadonlyArray<{ readonly gold: string; readonly predicted: string }>,
    options?: { signal?: AbortSignal },
  ): Promise<boolean[]>;
}

/** String equality: the official `compute_precision_recall_f1` semantics. */
export const exactJudge: AttributeJudge = {
  id: "exact",
  async equivalent(pairs) {
    return pairs.map((pair) => pair.gold === pair.predicted);
  },
};
