/**
 * lm-evaluation-harness's rolling windows for `loglikelihood_rolling` (`lm_eval/utils.py`
 * `get_rolling_token_windows` with `context_len = 1`, then `make_disjoint_window`, as its Hugging Face
 * model does): the text's tokens are cut into windows the model can take in one pass; every token is
 * predicted exactly once, from the tokens before it inside its window.
 *
 * - The first window predicts the first `min(maxLength, n)` tokens; its input is the prefix token
 *   (BOS, else EOS), then all but the last of those tokens.
 * - Each later window predicts the next `min(maxLength, remaining)` tokens; its input is the
 *   `maxLength` tokens that end just before the last predicted one, so a short final window keeps as
 *   much preceding text as fits as context (a full one has just the one token before it).
 *
 * Example, tokens 0…8, prefix P, maxLength 4:
 * ```
 *   input P 0 1 2  → predicts 0 1 2 3
 *   input 3 4 5 6  → predicts 4 5 6 7
 *   input 4 5 6 7  → predicts 8
 * ```
 */

export interface RollingWindow {
  /** The tokens fed to the model, at most `maxLength` of them. */
  readonly input: readonly number[];
  /**
   * The tokens this window scores, in order: `predicted[i]` is scored with the model's distribution
   * after `input[input.length - predicted.length + i]`. All but the last are also the input's tail.
   */
  readonly predicted: readonly number[];
}

/** The windows of `tokens` for a model that takes `maxLength` tokens at once; none for an empty text. */
export function rollingTokenWindows(
  tokens: readonly number[],
  prefixToken: number,
  maxLength: number,
): RollingWindow[] {
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  const windows: RollingWindow[] = [];
  if (tokens.length === 0) return windows;
  const first = Math.min(maxLength, tokens.length);
  windows.push({ input: [prefixToken, ...tokens.slice(0, first - 1)], predicted: tokens.slice(0, first) });
  for (let predicted = first; predicted < tokens.length;) {
    const count = Math.min(tokens.length - predicted, maxLength);
    const end = predicted + count;
    windows.push({ input: tokens.slice(end - maxLength - 1, end - 1), predicted: tokens.slice(predicted, end) });
    predicted = end;
  }
  return windows;
}
