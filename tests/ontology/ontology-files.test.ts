import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadOntologyFile, ONTOLOGY_DIR, ONTOLOGY_SCHEMAS, parseOntologyFile } from "../../src/ontology/ontology-files.ts";
import { VALIDATED_ONTOLOGY_DIR, validatedCopy } from "../../src/ontology/validated-ontology.ts";
import { FAMILY_CUE } from "../../src/modules/embedded/nlu/family-relations.ts";
import { PEOPLE, wordsPattern } from "../../src/modules/embedded/nlu/word-lists.ts";

describe("ontology files (src/ontology/ontology-files.ts)", () => {
  it("lists every file of ontology/ with a schema, and each one validates", () => {
    const files = readdirSync(ONTOLOGY_DIR).filter((name) => name.endsWith(".json")).sort();
    expect(Object.keys(ONTOLOGY_SCHEMAS).sort()).toEqual(files);
    for (const name of Object.keys(ONTOLOGY_SCHEMAS) as Array<keyof typeof ONTOLOGY_SCHEMAS>) expect(loadOntologyFile(name)).toBeTypeOf("object");
  });

  it("rejects a bad edit with the file and the path of the problem", () => {
    const lexicon = JSON.parse(readFileSync(`${ONTOLOGY_DIR}lexicon.json`, "utf8")) as Record<string, unknown>;
    lexicon.colors = "green";
    expect(() => parseOntologyFile("lexicon.json", JSON.stringify(lexicon))).toThrow(/^ontology\/lexicon\.json: colors: /);
    const cmas = JSON.parse(readFileSync(`${ONTOLOGY_DIR}cmas.json`, "utf8")) as { slots: Array<Record<string, unknown>> };
    cmas.slots[0]!.group = "clinical";
    expect(() => parseOntologyFile("cmas.json", JSON.stringify(cmas))).toThrow(/ontology\/cmas\.json: slots\.0\.group/);
  });
});

describe("the build's validated copies (src/ontology/validated-ontology.ts)", () => {
  it("hold, for every file's text as it is now, exactly what its schema gives", () => {
    const manifest = JSON.parse(readFileSync(join(VALIDATED_ONTOLOGY_DIR, "manifest.json"), "utf8")) as Record<string, string>;
    for (const name of Object.keys(ONTOLOGY_SCHEMAS) as Array<keyof typeof ONTOLOGY_SCHEMAS>) {
      const text = readFileSync(`${ONTOLOGY_DIR}${name}`, "utf8");
      expect(manifest[name], name).toBe(createHash("sha256").update(text).digest("hex"));
      expect(JSON.parse(readFileSync(join(VALIDATED_ONTOLOGY_DIR, name), "utf8")), name).toEqual(parseOntologyFile(name, text));
    }
  });

  it("are never read by code run from the sources, which validates every file itself", () => {
    const text = readFileSync(`${ONTOLOGY_DIR}lexicon.json`, "utf8");
    expect(validatedCopy("lexicon.json", text)).toBeUndefined();
  });
});

describe("word lists (ontology/word-lists.json)", () => {
  it("names relatives by the relation forms of the lexicon, without two-letter ones", () => {
    expect(PEOPLE.bloodRelatives).toEqual(expect.arrayContaining(["mother", "mom", "granny", "parent"]));
    expect(PEOPLE.relatives).not.toContain("ma");
    expect(FAMILY_CUE.test("does it run in the family")).toBe(true);
    expect(FAMILY_CUE.test("my granny had it")).toBe(true);
    expect(FAMILY_CUE.test("any fevers, ma'am?")).toBe(false);
  });

  it("builds whole-word patterns, longest phrase first", () => {
    expect(wordsPattern(["mom", "my dad"])).toBe("\\b(?:my\\s+dad|mom)\\b");
    expect(new RegExp(wordsPattern(["co-worker"])).test("a co-worker of mine")).toBe(true);
  });
});
