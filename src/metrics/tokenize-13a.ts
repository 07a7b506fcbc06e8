/**
 * `tokenizer_13a` as sacrebleu (`tokenizers/tokenizer_13a.py` + `tokenizer_re.py`) and Hugging Face
 * evaluate (`metrics/bleu/tokenizer_13a.py`) implement it: mteval-v13a's language-independent
 * normalisation followed by four punctuation rules and a Python whitespace split.
 */
import { pyRstrip, pySplit } from "./python-text.ts";

// The four substitutions of TokenizerRegexp, in order. They keep the character classes of the Python
// source; without the `u` flag a class matches one UTF-16 unit, which gives the same output as Python's
// per-code-point matching because no class can match half of a surrogate pair in a way that moves text.
// None of them can backtrack more than one character, so they run in linear time.
const PUNCT_RE = /([\{-\~\[-\` -\&\(-\+\:-\@\/])/g;
const PERIOD_COMMA_AFTER_NON_DIGIT_RE = /([^0-9])([\.,])/g;
const PERIOD_COMMA_BEFORE_NON_DIGIT_RE = /([\.,])([^0-9])/g;
const DASH_AFTER_DIGIT_RE = /([0-9])(-)/g;

/**
 * Tokenises one segment exactly as `Tokenizer13a()(line)` does in HF evaluate (which returns the token
 * list). sacrebleu's copy returns `" ".join(tokens)` and splits it again, which yields the same list.
 * Case-sensitive; no Unicode normalisation.
 */
export function tokenize13a(line: string): string[] {
  let s = line;
  if (s.includes("<skipped>")) s = s.replaceAll("<skipped>", "");
  if (s.includes("\n")) s = s.replaceAll("-\n", "").replaceAll("\n", " ");
  if (s.includes("&")) {
    // Sequential, as in the reference: "&amp;lt;" becomes "&lt;" and then "<".
    s = s.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
  }
  s = ` ${s} `.replace(PUNCT_RE, " $1 ");
  // A substitution whose target character is absent cannot match; skipping it changes nothing.
  if (s.includes(".") || s.includes(",")) {
    s = s.replace(PERIOD_COMMA_AFTER_NON_DIGIT_RE, "$1 $2 ").replace(PERIOD_COMMA_BEFORE_NON_DIGIT_RE, " $1 $2");
  }
  if (s.includes("-")) s = s.replace(DASH_AFTER_DIGIT_RE, "$1 $2 ");
  return pySplit(s);
}

/**
 * The tokens sacrebleu's BLEU scores: `BLEU._preprocess_segment` right-strips (Python whitespace) before
 * 13a, so e.g. a trailing `"follow-\n"` keeps its dash, unlike HF evaluate which joins `-\n`.
 */
export function tokenize13aSacrebleu(line: string): string[] {
  return tokenize13a(pyRstrip(line));
}
