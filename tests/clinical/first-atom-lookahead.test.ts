import { describe, expect, it } from "vitest";
import { withFirstAtomLookahead } from "../../src/clinical/first-atom-lookahead.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";

/** Every match (index and text) of a pattern in a sentence. */
function matches(source: string, sentence: string): Array<[number, string]> {
  return [...sentence.matchAll(new RegExp(source, "gi"))].map((match) => [match.index, match[0]]);
}

describe("a lookahead of the first atom in front of leading lookbehinds", () => {
  const guarded = String.raw`(?<!\b(?:bike|cycling)\b[^.;]{0,30})\b(?:numb|dead)\w*[^.;]{0,20}\bdown below`;

  it("puts what every match starts with in front, and keeps the matches", () => {
    expect(withFirstAtomLookahead(guarded)).toBe(String.raw`(?=\b(?:numb|dead))` + guarded);
    for (const sentence of [
      "I've gone numb down below since this morning",
      "after cycling all day I was numb down below",
      "dead feeling down below and numb down below too",
    ])
      expect(matches(withFirstAtomLookahead(guarded), sentence), sentence).toEqual(matches(guarded, sentence));
  });

  it("takes a word's letters but the last, which a quantifier may follow", () => {
    expect(withFirstAtomLookahead(String.raw`(?<!not )dogs?\b`)).toBe(String.raw`(?=dog)(?<!not )dogs?\b`);
  });

  it("leaves alone a pattern it cannot make faster without changing it", () => {
    for (const source of [
      String.raw`\b(?:numb|dead) down below`, // no leading lookbehind
      String.raw`(?<!x)numb|dead`, // the lookbehind guards the first branch only
      String.raw`(?<!x)(?:very )?numb`, // the first atom may be skipped
      String.raw`(?<!x)(\w+) \1`, // a back-reference would point into the copy
      String.raw`(?<!x)(?=numb)numb`, // a lookaround first
    ])
      expect(withFirstAtomLookahead(source), source).toBe(source);
  });

  it("the bundled rules' patterns still compile, and some are given the lookahead", () => {
    const reader = Object.values(loadRedFlags()).find(
      (value): value is { signs: Array<{ patterns: RegExp[] }>; read: unknown } =>
        typeof value === "object" && value !== null && "read" in value && "signs" in value,
    );
    const sources = reader!.signs.flatMap((sign) => sign.patterns.map((pattern) => pattern.source));
    expect(sources.filter((source) => source.startsWith("(?=")).length).toBeGreaterThan(20);
  });
});
