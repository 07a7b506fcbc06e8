/**
 * rouge_score 0.1.2's default tokenizer (`tokenize.py`): lower-case, every run of characters outside
 * `[a-z0-9]` becomes a space, split on `\s+`, optionally Porter-stem tokens longer than 3 characters,
 * keep tokens matching `^[a-z0-9]+$`.
 */
import { porterStem } from "./porter-stemmer.ts";

/**
 * The tokens rouge_score's `DefaultTokenizer(use_stemmer).tokenize(text)` returns.
 *
 * After the substitution the text holds only `[a-z0-9]` runs and spaces, so the tokens are exactly the
 * maximal `[a-z0-9]` runs of the lower-cased text; one scan finds them. Only ASCII letters, `İ` (→ `i`
 * + U+0307) and the Kelvin sign (→ `k`) lower-case into `[a-z0-9]`, and JavaScript's `toLowerCase`
 * agrees with Python's `lower()` on all three.
 */
export function tokenizeRouge(text: string, useStemmer = false): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  const n = lower.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    const alnum = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (alnum) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(start === 0 ? lower : lower.slice(start));
  return useStemmer ? stemRougeTokens(out) : out;
}

/**
 * Applies rouge_score's stemming step to already-tokenised (unstemmed) rouge tokens: stem tokens longer
 * than 3 characters, keep the others, then drop anything that is not `[a-z0-9]+` (the stemmer never
 * produces such output from `[a-z0-9]+` input, but the reference filters after stemming).
 */
export function stemRougeTokens(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const stemmed = token.length > 3 ? porterStem(token) : token;
    if (stemmed.length > 0) out.push(stemmed);
  }
  return out;
}
