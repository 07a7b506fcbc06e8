import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isFourFieldNote, loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { noteSplit } from "../../src/data/note-dataset.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-notes-data-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FOUR_FIELD = "Symptoms: cough\nDiagnosis: N/A\nHistory of Patient: smoker, 60\nPlan of Action: N/A";

describe("MTS-Dialog loader", () => {
  const dataset = loadMtsDialog();

  it("loads the four bundled splits with the published counts", () => {
    expect(Object.fromEntries(Object.entries(dataset.splits).map(([split, documents]) => [split, documents.length]))).toEqual({ train: 1201, valid: 100, test1: 200, test2: 200 });
    expect(dataset.documents.size).toBe(1701);
    expect(dataset.defaultSplit).toBe("valid");
    expect(dataset.trainingSplit).toBe("train");
    expect(dataset.info.comparable_with_lm_eval).toBe(false);
    expect(dataset.info.note).toMatch(/not comparable with lm-eval's/);
  });

  it("keeps quoted multi-line fields: dialogues are speaker lines, targets the original section text", () => {
    const first = noteSplit(dataset, "valid")[0]!;
    expect(first.id).toBe("valid-0");
    expect(first.header).toBe("GENHX");
    expect(first.input.split("\n")[0]).toBe("Doctor: When did your pain begin? ");
    expect(first.target.startsWith("The patient is a 26-year-old female, referred to Physical Therapy for low back pain.")).toBe(true);
    // The training file writes CRLF inside its quoted dialogues; they are kept as written.
    expect(noteSplit(dataset, "train")[0]!.input).toContain("\r\n");
    expect(noteSplit(dataset, "test2").at(-1)!.id).toBe("test2-199");
  });

  it("loads a har1-layout file (train rows, then valid rows with the ID restarting) as CSV or JSONL", () => {
    const rows = [
      { ID: 0, section_header: "GENHX", section_text: FOUR_FIELD, dialogue: "Doctor: Cough?\nPatient: Yes." },
      { ID: 1, section_header: "CC", section_text: FOUR_FIELD.replace("cough", "fever"), dialogue: "Doctor: Fever?\nPatient: Yes." },
      { ID: 0, section_header: "ROS", section_text: FOUR_FIELD.replace("cough", "rash"), dialogue: "Doctor: Rash?\nPatient: Yes." },
    ];
    const jsonl = join(scratch, "har1.jsonl");
    writeFileSync(jsonl, rows.map((row) => JSON.stringify(row)).join("\n"));
    const csv = join(scratch, "har1.csv");
    const quote = (value: string | number) => `"${String(value).replace(/"/g, '""')}"`;
    writeFileSync(csv, ["ID,section_header,section_text,dialogue", ...rows.map((row) => [row.ID, row.section_header, row.section_text, row.dialogue].map(quote).join(","))].join("\r\n"));
    for (const path of [jsonl, csv]) {
      const mirror = loadMtsDialog(path);
      expect(Object.keys(mirror.splits)).toEqual(["all", "train", "valid"]);
      expect(noteSplit(mirror, "all").map((document) => document.id)).toEqual(["0", "1", "2"]);
      expect(noteSplit(mirror, "valid").map((document) => document.id)).toEqual(["2"]);
      expect(noteSplit(mirror, "all")[2]!.target).toBe(rows[2]!.section_text);
      expect(mirror.defaultSplit).toBe("all");
      expect(mirror.trainingSplit).toBe("train");
      expect(mirror.info.target).toMatch(/four-field/);
      // Only the full 1,301-row mirror gives lm-eval's numbers.
      expect(mirror.info.comparable_with_lm_eval).toBe(false);
      expect(mirror.info.note).toMatch(/this file has 3 rows, not 1,301/);
    }
  });

  it("tells four-field notes from original section text", () => {
    expect(isFourFieldNote(FOUR_FIELD)).toBe(true);
    expect(isFourFieldNote(noteSplit(dataset, "valid")[0]!.target)).toBe(false);
  });

  it("names the file and the missing column of a malformed file", () => {
    const path = join(scratch, "bad.csv");
    writeFileSync(path, "ID,dialogue\n0,hi\n");
    expect(() => loadMtsDialog(path)).toThrow(/bad\.csv: record 1: no column 'section_header', 'section_text'/);
    expect(() => noteSplit(dataset, "test")).toThrow("MTS-Dialog (bundled abachaa/MTS-Dialog, CC BY 4.0) has no split 'test' (available: train, valid, test1, test2)");
  });
});
