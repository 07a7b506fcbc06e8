import { describe, expect, it } from "vitest";
import {
  isPySpace,
  pyLen,
  pyLower,
  pyReSplitWhitespace,
  pyRstrip,
  pySplit,
  pyWordCount,
  pyStrip,
} from "../../src/metrics/python-text.ts";

// CPython 3.11: [hex(c) for c in range(0x110000) if chr(c).isspace()]
const PYTHON_WHITESPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

describe("Python whitespace (str.isspace)", () => {
  it("is exactly CPython's set over the whole BMP", () => {
    const found: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isPySpace(c)) found.push(c);
    expect(found).toEqual(PYTHON_WHITESPACE);
  });

  it("includes the separators JavaScript's \\s misses (\\x1c-\\x1f, \\x85)", () => {
    expect(pySplit("a\x1cb\x1dc\x1ed\x1fe")).toEqual(["a", "b", "c", "d", "e"]);
    expect(pySplit("no\x85fever")).toEqual(["no", "fever"]);
    expect("a\x1cb".split(/\s+/)).toEqual(["a\x1cb"]); // what a naive port would do
  });

  it("excludes the BOM and zero-width space, which JavaScript's \\s treats differently", () => {
    expect(pySplit("\ufeffAny chest pain?")).toEqual(["\ufeffAny", "chest", "pain?"]);
    expect(pySplit("a\u200bb")).toEqual(["a\u200bb"]);
    expect("\ufeffAny".trim()).toBe("Any"); // what a naive port would do
    expect(pyStrip("\ufeffAny ")).toBe("\ufeffAny");
  });

  it("treats NBSP and the thin space as whitespace", () => {
    expect(pySplit("Give 5\u00a0mg now and 10\u2009mg later.")).toEqual([
      "Give",
      "5",
      "mg",
      "now",
      "and",
      "10",
      "mg",
      "later.",
    ]);
  });

  it("split() drops empty strings; re.split(r'\\s+') keeps the edge ones", () => {
    expect(pySplit("")).toEqual([]);
    expect(pySplit(" \t\n ")).toEqual([]);
    expect(pySplit("  a  b ")).toEqual(["a", "b"]);
    expect(pyReSplitWhitespace("")).toEqual([""]);
    expect(pyReSplitWhitespace(" a  b ")).toEqual(["", "a", "b", ""]);
    expect(pyReSplitWhitespace("a\x85b")).toEqual(["a", "b"]);
  });

  it("strip() and rstrip() use the same set", () => {
    expect(pyStrip("\x1c\x85 a b\u3000\n")).toBe("a b");
    expect(pyRstrip(" a \x1f")).toBe(" a");
    expect(pyRstrip("follow-\n")).toBe("follow-");
    expect(pyStrip("   ")).toBe("");
  });
});

describe("Python len and lower", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(pyLen("🤒🤒🤒")).toBe(3);
    expect("🤒🤒🤒".length).toBe(6);
    expect(pyLen("Cafe\u0301")).toBe(5);
    expect(pyLen("\ud83e")).toBe(1); // a lone surrogate is one code point in Python too
    expect(pyLen("")).toBe(0);
  });

  it("lower-cases like CPython 3.11", () => {
    expect(pyLower("İbuprofen")).toBe("i\u0307buprofen");
    expect(pyLower("5 \u212a")).toBe("5 k");
    expect(pyLower("ΟΔΥΣΣΕΥΣ")).toBe("οδυσσευς"); // final sigma
    expect(pyLower("Straße")).toBe("straße");
    // Letters added after Unicode 14 (Python 3.11's tables) are left unchanged, as Python 3.11 does.
    expect(pyLower("\ua7cbX\ud803\udd50")).toBe("\ua7cbx\ud803\udd50");
  });
});

describe("Python word count (len(str.split()))", () => {
  it("counts what pySplit returns, without making the words", () => {
    for (const text of [
      "",
      "   ",
      "one",
      " two  words ",
      "a\u0085b\u00a0c\ufeffd",
      "[doctor] hi , carolyn .\n[patient] good .",
    ])
      expect(pyWordCount(text), JSON.stringify(text)).toBe(pySplit(text).length);
  });
});
