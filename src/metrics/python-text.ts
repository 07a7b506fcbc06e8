/**
 * Python's string semantics, as the reference metric implementations see text.
 *
 * JavaScript's `\s`, `trim()` and `split()` disagree with Python: JS misses U+001C–U+001F and U+0085,
 * adds U+FEFF (BOM), and `split` keeps empty strings. Every metric port goes through these helpers so
 * that tokenisation matches CPython 3.11 exactly.
 */

/** Lookup table for the BMP: 1 where CPython's `str.isspace()` is true. Every such code point is in the BMP. */
const PY_SPACE = new Uint8Array(0x10000);
for (const cp of [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]) {
  PY_SPACE[cp] = 1;
}

/**
 * True when the UTF-16 code unit is a character for which Python's `str.isspace()` is true.
 * Surrogates are never whitespace, so testing code units is exact.
 */
export function isPySpace(codeUnit: number): boolean {
  return PY_SPACE[codeUnit] === 1;
}

/** Python `str.split()` with no arguments: split on runs of Python whitespace, drop empty strings. */
export function pySplit(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    if (PY_SPACE[text.charCodeAt(i)] === 1) {
      if (start >= 0) {
        out.push(text.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) out.push(start === 0 ? text : text.slice(start));
  return out;
}

/** `len(text.split())`: the number of runs of non-whitespace characters, without making them. */
export function pyWordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = PY_SPACE[text.charCodeAt(i)] === 1;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Python `str.strip()` with no arguments. */
export function pyStrip(text: string): string {
  let end = text.length;
  while (end > 0 && PY_SPACE[text.charCodeAt(end - 1)] === 1) end--;
  let start = 0;
  while (start < end && PY_SPACE[text.charCodeAt(start)] === 1) start++;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Python `str.rstrip()` with no arguments. */
export function pyRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && PY_SPACE[text.charCodeAt(end - 1)] === 1) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Python `len(str)`: the number of code points. A surrogate pair counts once; a lone surrogate (which
 * Python can also hold, e.g. from a JSON `\ud83e` escape) counts once too, like `[...text].length`.
 */
export function pyLen(text: string): number {
  const n = text.length;
  let pairs = 0;
  for (let i = 0; i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return n - pairs;
}

/**
 * Python `re.split(r"\s+", text)` for `str` patterns: split on runs of Python whitespace and, unlike
 * `str.split()`, keep the empty strings produced by leading/trailing whitespace (`"" -> [""]`).
 */
export function pyReSplitWhitespace(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let start = 0;
  let i = 0;
  while (i < n) {
    if (PY_SPACE[text.charCodeAt(i)] === 1) {
      out.push(text.slice(start, i));
      while (i < n && PY_SPACE[text.charCodeAt(i)] === 1) i++;
      start = i;
    } else {
      i++;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * Upper-case letters that V8's ICU lower-cases but CPython 3.11 (Unicode 14.0 tables) leaves alone:
 * letters added in Unicode 15–17. Each maps to a code point of the same UTF-16 length.
 */
const NEWER_THAN_PY311_CASED =
  /([\u1c89\ua7cb\ua7cc\ua7ce\ua7d2\ua7d4\ua7da\ua7dc]|\ud803[\udd50-\udd65]|\ud81b[\udea0-\udeb8])/;

/**
 * Python 3.11 `str.lower()`. V8's `toLowerCase` implements the same full (SpecialCasing) mapping
 * (`İ` → `i̇`, Kelvin sign → `k`, final sigma) but from newer Unicode tables, so the few letters that
 * Python 3.11 does not know are left unchanged here.
 */
export function pyLower(text: string): string {
  const lower = text.toLowerCase();
  if (lower === text || !NEWER_THAN_PY311_CASED.test(text)) return lower;
  // Rare path: lower the text around the letters Python 3.11 keeps as they are.
  const parts = text.split(NEWER_THAN_PY311_CASED);
  for (let i = 0; i < parts.length; i += 2) parts[i] = (parts[i] as string).toLowerCase();
  return parts.join("");
}
