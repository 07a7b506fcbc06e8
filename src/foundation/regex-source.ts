/**
 * Whether a regular expression's source has an alternation outside every group and class ("a|b"), so
 * that what holds of its first branch (a lookbehind before it, a literal it starts with) does not hold
 * of the whole. Example: `\bfevers?\b|\bchills\b` has one; `\b(?:fever|chills)\b` does not.
 */
export function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  for (let index = 0, inClass = false; index < source.length; index += 1) {
    const char = source[index];
    if (char === "\\") index += 1;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    else if (char === "|" && depth === 0) return true;
  }
  return false;
}
