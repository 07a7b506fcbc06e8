import { describe, expect, it } from "vitest";
import { tokenize13a, tokenize13aSacrebleu } from "../../src/metrics/tokenize-13a.ts";
import { meditodPreprocess, tokenizeMeditod } from "../../src/metrics/tokenize-meditod.ts";
import { tokenizeRouge } from "../../src/metrics/tokenize-rouge.ts";

describe("tokenizer_13a", () => {
  it("keeps decimals, thousands separators and minus signs inside numbers", () => {
    expect(tokenize13a("Temp 38.5°C")).toEqual(["Temp", "38.5°C"]);
    expect(tokenize13a("WBC 12,500")).toEqual(["WBC", "12,500"]);
    expect(tokenize13a("shift -0.5")).toEqual(["shift", "-0.5"]);
  });

  it("splits a dash only after a digit, and a final period through the padding space", () => {
    expect(tokenize13a("2-3 days")).toEqual(["2", "-", "3", "days"]);
    expect(tokenize13a("well-controlled")).toEqual(["well-controlled"]);
    expect(tokenize13a("It was 5.")).toEqual(["It", "was", "5", "."]);
  });

  it("splits ASCII punctuation but not apostrophes, commas between digits or non-ASCII punctuation", () => {
    expect(tokenize13a("he's fine; ratio 3:1/2")).toEqual(["he's", "fine", ";", "ratio", "3", ":", "1", "/", "2"]);
    expect(tokenize13a("I’m “ok” – 5°")).toEqual(["I’m", "“ok”", "–", "5°"]);
  });

  it("is case-sensitive and does not normalise Unicode", () => {
    expect(tokenize13a("Yes yes")).toEqual(["Yes", "yes"]);
    expect(tokenize13a("Cafe\u0301")).not.toEqual(tokenize13a("Café"));
  });

  it("decodes the four entities in sequence and only when '&' is present", () => {
    expect(tokenize13a("BP &gt; 140 &amp; &quot;ok&quot;")).toEqual(["BP", ">", "140", "&", '"', "ok", '"']);
    expect(tokenize13a("&amp;lt;")).toEqual(["<"]); // "&amp;" -> "&", then "&lt;" -> "<"
  });

  it("drops <skipped>, joins hyphenated line breaks and treats newlines as spaces", () => {
    expect(tokenize13a("The <skipped> patient")).toEqual(["The", "patient"]);
    expect(tokenize13a("follow-\nup\nplan")).toEqual(["followup", "plan"]);
  });

  it("splits on Python whitespace (BOM stays attached, \\x1c splits)", () => {
    expect(tokenize13a("\ufeffAny\x1cpain")).toEqual(["\ufeffAny", "pain"]);
  });

  it("sacrebleu right-strips first, so a trailing '-\\n' keeps its dash", () => {
    expect(tokenize13a("follow-\n")).toEqual(["follow"]);
    expect(tokenize13aSacrebleu("follow-\n")).toEqual(["follow-"]);
  });
});

describe("rouge_score tokenizer", () => {
  it("keeps only [a-z0-9] runs of the lower-cased text", () => {
    expect(tokenizeRouge("Café au lait")).toEqual(["caf", "au", "lait"]);
    expect(tokenizeRouge("38.5°C")).toEqual(["38", "5", "c"]);
    expect(tokenizeRouge("5mg vs 5-mg")).toEqual(["5mg", "vs", "5", "mg"]);
    expect(tokenizeRouge("I’m BP &gt; 140")).toEqual(["i", "m", "bp", "gt", "140"]);
  });

  it("lower-cases İ to i + U+0307 and the Kelvin sign to k", () => {
    expect(tokenizeRouge("İbuprofen")).toEqual(["i", "buprofen"]);
    expect(tokenizeRouge("300 \u212a")).toEqual(["300", "k"]);
  });

  it("stems only tokens longer than 3 characters", () => {
    expect(tokenizeRouge("Was coughing, flies", true)).toEqual(["was", "cough", "fli"]);
    expect(tokenizeRouge("", true)).toEqual([]);
  });
});

describe("MediTOD preprocess_text", () => {
  it("lower-cases, spaces out string.punctuation and collapses Python whitespace", () => {
    expect(meditodPreprocess("  Hello,\tWORLD!!\x1c(x-ray) ")).toBe("hello , world ! ! ( x - ray )");
    expect(tokenizeMeditod("Any chest pain?")).toEqual(["any", "chest", "pain", "?"]);
  });

  it("leaves non-ASCII punctuation attached", () => {
    expect(meditodPreprocess("I’m “fine”")).toBe("i’m “fine”");
  });

  it("handles empty and whitespace-only text", () => {
    expect(meditodPreprocess("")).toBe("");
    expect(tokenizeMeditod(" \u3000 ")).toEqual([]);
  });
});
