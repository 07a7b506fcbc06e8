/**
 * MediTOD's `preprocess_text` (`metrics/nlg_metrics.py`): strip, tab to space, lower-case, surround each
 * character of Python's `string.punctuation` with spaces, collapse whitespace. MediTOD then scores
 * `text.split()` of the result with nltk BLEU and feeds the string itself to ROUGE / BERTScore.
 */
import { isPySpace, pyLower } from "./python-text.ts";

/** 1 for the 32 characters of Python's `string.punctuation` (all of ASCII punctuation). */
const PUNCTUATION = new Uint8Array(128);
for (const ch of "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") PUNCTUATION[ch.charCodeAt(0)] = 1;

/**
 * The whitespace tokens of `preprocess_text(text).split()`.
 *
 * Surrounding every punctuation character with spaces and then splitting is the same as emitting each
 * punctuation character as its own token, and strip / tab replacement cannot change a whitespace split,
 * so one pass over the lower-cased text gives the tokens without building the padded string.
 */
export function tokenizeMeditod(text: string): string[] {
  const lower = pyLower(text);
  const out: string[] = [];
  const n = lower.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    const punct = c < 128 && PUNCTUATION[c] === 1;
    if (punct || isPySpace(c)) {
      if (start >= 0) {
        out.push(lower.slice(start, i));
        start = -1;
      }
      if (punct) out.push(lower[i] as string);
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) out.push(start === 0 ? lower : lower.slice(start));
  return out;
}

/** MediTOD `preprocess_text(text)`: the normalised string (tokens joined by single spaces). */
export function meditodPreprocess(text: string): string {
  return tokenizeMeditod(text).join(" ");
}
