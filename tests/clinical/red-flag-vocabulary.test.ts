import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expandTerms, SignReader } from "../../src/clinical/red-flag-signs.ts";
import { loadRedFlags, parseRedFlags } from "../../src/clinical/red-flags.ts";

const rules = loadRedFlags();
const fired = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
const bundled = () => JSON.parse(readFileSync(new URL("../../ontology/red-flags.json", import.meta.url), "utf8"));

describe("the bundled file's examples", () => {
  it("every sign's and flag's example shows it: read here, since loading the bundled file does not read them", () => {
    expect(() => parseRedFlags(JSON.stringify(bundled()))).not.toThrow();
    const file = bundled();
    file.signs.vomiting.examples.push("a quiet afternoon in the garden");
    expect(() => parseRedFlags(JSON.stringify(file))).toThrow(/sign 'vomiting': its example 'a quiet afternoon/);
  });
});

describe("terms: named word lists the sign patterns share", () => {
  it("expands a term into a group of its forms, terms inside forms too", () => {
    const terms = {
      blood: { means: "blood", forms: ["blood", "claret"] },
      bloody: { means: "bloody", forms: ["{{blood}}y?"] },
    };
    expect(expandTerms("{{bloody}} nose", terms)).toBe("(?:(?:blood|claret)y?) nose");
    expect(new RegExp(expandTerms("{{bloody}} nose", terms)).test("claret nose")).toBe(true);
    expect(() => expandTerms("{{gore}}", terms)).toThrow(/unknown term '\{\{gore\}\}'/);
    expect(() => expandTerms("{{a}}", { a: { means: "loop", forms: ["{{a}}"] } })).toThrow(/loop/);
  });

  it("reads a word added to a term in every sign that names it (negative control: a sign not naming it)", () => {
    const reader = new SignReader(
      { sick_blood: { means: "x", patterns: ["{{vomited}} blood"], examples: ["spewed blood"] } },
      { vomited: { means: "vomited", forms: ["vomited", "spewed"] } },
    );
    expect(reader.read("I spewed blood").has("sick_blood")).toBe(true);
    expect(reader.read("I coughed blood").has("sick_blood")).toBe(false);
  });

  it("fails the file's check on a pattern naming a term that does not exist", () => {
    const file = bundled();
    file.signs.vomiting.patterns.push("{{no_such_term}}");
    expect(() => parseRedFlags(JSON.stringify(file))).toThrow(/sign 'vomiting': .* unknown term/);
  });
});

describe("respellings: apostrophes left out and dialect words, read as their standard spelling", () => {
  it("hears 'cant', 'wont' and 'hasnt' as with their apostrophes (negative control: the same words in a benign sentence)", () => {
    expect(fired("my back is killing me and i cant pee")).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired("my back is killing me and i can't pee")).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired("my back is killing me but i cant complain")).toEqual([]);
  });

  it("hears Scots words ('cannae', 'heid', 'ma') and a relative's 'da'", () => {
    expect(fired("ma heid's bangin, I'm boilin and I cannae move ma neck")).toContain("fever_headache_stiff_neck");
    expect(fired("me da's back went on Saturday and now he's wetting himself")).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(fired("ma heid's fine, just a wee bit tired")).toEqual([]);
  });
});

describe("other subjects: sentences about a pet, or something seen or read", () => {
  it("reads no sign in them (negative control: the same words about the patient)", () => {
    expect(fired("our puppy's been floppy and off his food")).toEqual([]);
    expect(fired("we watched a documentary about suicide prevention")).toEqual([]);
    expect(fired("my baby's been floppy and off her feeds")).toEqual(["sepsis_in_a_child"]);
    expect(fired("I keep thinking about suicide")).toEqual(["suicidal_thoughts"]);
  });

  it("fails the file's check when an example of other subjects does not match its patterns", () => {
    const file = bundled();
    file.otherSubjects.examples.push("my own chest hurts");
    expect(() => parseRedFlags(JSON.stringify(file))).toThrow(/otherSubjects: its example 'my own chest hurts'/);
  });
});
