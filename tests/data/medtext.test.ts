import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadMedtext, MEDTEXT_MISSING } from "../../src/data/medtext.ts";
import { noteSplit } from "../../src/data/note-dataset.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-medtext-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("MedText loader", () => {
  it("is not bundled: without a file it fails with a one-line message", () => {
    expect(() => loadMedtext()).toThrow(MEDTEXT_MISSING);
    expect(MEDTEXT_MISSING).not.toContain("\n");
  });

  it("loads Prompt and Completion rows from a CSV file, ids being row numbers", () => {
    const path = join(scratch, "medtext.csv");
    writeFileSync(path, 'Prompt,Completion\n"A 30-year-old with fever, cough.","The likely diagnosis is pneumonia.\nTreatment: antibiotics."\n"A child with a rash.","Chickenpox. Supportive care."\n');
    const medtext = loadMedtext(path);
    expect(medtext.task).toBe("medtext");
    expect(noteSplit(medtext, "all")).toEqual([
      { id: "0", input: "A 30-year-old with fever, cough.", target: "The likely diagnosis is pneumonia.\nTreatment: antibiotics." },
      { id: "1", input: "A child with a rash.", target: "Chickenpox. Supportive care." },
    ]);
    expect(medtext.info.comparable_with_lm_eval).toBe(false);
    expect(medtext.info.note).toMatch(/this file has 2/);
  });
});
