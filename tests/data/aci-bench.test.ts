import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACI_BENCH_SPLIT_FILES, BUNDLED_ACI_BENCH_DIR, loadAciBench } from "../../src/data/aci-bench.ts";
import { alignOfficialPredictions, readOfficialPredictions } from "../../src/data/aci-bench-predictions.ts";
import { isPandasMissing, pandasText } from "../../src/data/pandas-cells.ts";
import { tempDirForTest } from "../temp-dirs.ts";

const CHALLENGE_DATA = join(BUNDLED_ACI_BENCH_DIR, "challenge_data");

/** A copy of the bundled challenge data laid out as a checkout of wyim/aci-bench (`data/challenge_data/`). */
function checkoutCopy(): { root: string; data: string } {
  const root = tempDirForTest("anamnesis-aci-");
  const data = join(root, "data", "challenge_data");
  mkdirSync(data, { recursive: true });
  cpSync(CHALLENGE_DATA, data, { recursive: true });
  return { root, data };
}

describe("ACI-Bench loader", () => {
  const dataset = loadAciBench();

  it("loads the five challenge splits with the published counts, encounters in file order", () => {
    const counts = Object.fromEntries(Object.entries(dataset.splits).map(([split, list]) => [split, list.length]));
    expect(counts).toEqual({ train: 67, valid: 20, test1: 40, test2: 40, test3: 40 });
    expect(dataset.encounters.size).toBe(207);
    expect(dataset.splits.train[0]!.id).toBe("D2N001");
    expect(dataset.splits.test1[0]!.id).toBe("D2N088");
    expect(dataset.splits.test2[0]!.id).toBe("D2N128");
    expect(dataset.splits.test3.at(-1)!.id).toBe("D2N207");
    expect(dataset.trainingSplit).toBe("train");
    expect(dataset.task).toBe("aci_bench");
  });

  it("joins each encounter with its metadata row: dataset, gender, complaints as written", () => {
    const first = dataset.splits.test2[0]!;
    expect(first.source).toBe("virtassist");
    expect(first.metadata).toMatchObject({ patient_gender: "female", cc: "chronic problems", "2nd_complaints": "osteoarthritis;gout;psoriasis" });
    expect(first.input.startsWith("[doctor] hi , carolyn . how are you ?\n[patient] good .")).toBe(true);
    expect(first.target.startsWith("CHIEF COMPLAINT\n\nFollow-up of chronic problem.")).toBe(true);
    const sources = new Set([...dataset.encounters.values()].map((encounter) => encounter.source));
    expect([...sources].sort()).toEqual(["aci", "virtassist", "virtscribe"]);
  });

  it("reads a user's checkout of wyim/aci-bench, its data/challenge_data folder, or that folder itself", () => {
    const { root, data } = checkoutCopy();
    for (const path of [root, join(root, "data"), data]) {
      const loaded = loadAciBench(path);
      expect(loaded.dir).toBe(data);
      expect(loaded.splits.test1.map((encounter) => encounter.target)).toEqual(dataset.splits.test1.map((e) => e.target));
      expect(loaded.info.name).toBe("ACI-Bench (wyim/aci-bench layout)");
    }
  });

  it("refuses data it cannot read whole, in one line naming the file and record", () => {
    const { root, data } = checkoutCopy();
    expect(() => loadAciBench(join(root, "nowhere"))).toThrow(/ACI-Bench data not found/);
    expect(() => loadAciBench(join(data, "train.csv"))).toThrow(/must be a folder/);
    const metadata = join(data, `${ACI_BENCH_SPLIT_FILES.valid}_metadata.csv`);
    const rows = readFileSync(metadata, "utf8").split("\n");
    writeFileSync(metadata, [rows[0], rows[2], rows[1], ...rows.slice(3)].join("\n"));
    expect(() => loadAciBench(root)).toThrow(/valid_metadata\.csv: record 1 is encounter D2N069, .*valid\.csv has D2N068 there/);
    writeFileSync(metadata, rows.slice(0, 5).join("\n"));
    expect(() => loadAciBench(root)).toThrow(/valid_metadata\.csv has 4 rows, .*valid\.csv has 20/);
    writeFileSync(join(data, "train.csv"), "dataset,encounter_id,dialogue\naci,D2N001,hello\n");
    expect(() => loadAciBench(root)).toThrow(/train\.csv: record 1: note: /);
  });
});

describe("the official predictions CSV, read as pandas reads it", () => {
  const gold = loadAciBench().splits.test2;

  it("reads the note column of a shipped baseline in the gold order", () => {
    const file = readOfficialPredictions(join(BUNDLED_ACI_BENCH_DIR, "predictions", "BioBART_clinicalnlp_taskC_test2_full.csv"));
    const notes = alignOfficialPredictions(file, gold, "test2");
    expect(notes).toHaveLength(40);
    expect(file.encounterIds![0]).toBe("D2N128");
  });

  it("scores a cell pandas takes for missing as the text 'nan', as the script's str() does", () => {
    expect(["", "NA", "N/A", "None", "null", "nan", "#N/A"].every(isPandasMissing)).toBe(true);
    expect(["none", " ", "NA ", "0", "n.a."].some(isPandasMissing)).toBe(false);
    expect(pandasText("")).toBe("nan");
    expect(pandasText("CHIEF COMPLAINT")).toBe("CHIEF COMPLAINT");
    const dir = tempDirForTest();
    const path = join(dir, "predictions.csv");
    // A blank line is no row (pandas skips it too); a quoted empty cell is a row.
    writeFileSync(path, 'note\n""\n\nNA\nnone\n');
    expect(readOfficialPredictions(path).notes).toEqual(["nan", "nan", "none"]);
  });

  it("refuses a file without a note column, of another length, or of another split, in one line", () => {
    const dir = tempDirForTest();
    const wrongColumns = join(dir, "wrong-columns.csv");
    writeFileSync(wrongColumns, "encounter_id,summary\nD2N128,text\n");
    expect(() => readOfficialPredictions(wrongColumns)).toThrow(/no 'note' column \(found: encounter_id, summary\)/);
    const short = join(dir, "short.csv");
    writeFileSync(short, "note\nonly one\n");
    expect(() => alignOfficialPredictions(readOfficialPredictions(short), gold, "test2")).toThrow(/has 1 rows; the gold test2 split has 40/);
    const otherSplit = readOfficialPredictions(join(BUNDLED_ACI_BENCH_DIR, "predictions", "BART_large_clinicalnlp_taskB_test1_full.csv"));
    expect(() => alignOfficialPredictions(otherSplit, gold, "test2")).toThrow(/row 1 is encounter D2N088, the gold test2 split has D2N128 there/);
    expect(() => readOfficialPredictions(join(dir, "missing.csv"))).toThrow(/predictions file not found/);
  });
});
