import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLED_MEDITOD_DIR, checkDialogs, datasetStats, loadMeditod } from "../../src/data/meditod.ts";
import { nlgExamples, nluExamples, policyExamples } from "../../src/data/meditod-views.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";

const dataset = loadMeditod();
const scratch = mkdtempSync(join(tmpdir(), "anamnesis-data-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("MediTOD loader", () => {
  it("loads the bundled public sample with its three splits", () => {
    expect(dataset.splits).toEqual({ train: ["115"], valid: ["317"], test: ["407"] });
    expect(datasetStats(dataset)).toEqual({
      train: { dialogues: 1, utterances: 103, patient_turns: 51, doctor_turns: 52 },
      valid: { dialogues: 1, utterances: 107, patient_turns: 53, doctor_turns: 54 },
      test: { dialogues: 1, utterances: 149, patient_turns: 74, doctor_turns: 75 },
    });
  });

  it("ships a sample that has MediTOD's format (the loader trusts it rather than validating it at every start)", () => {
    const path = join(BUNDLED_MEDITOD_DIR, "dialogs.json");
    const json: unknown = JSON.parse(readFileSync(path, "utf8"));
    expect(Object.keys(checkDialogs(json, path))).toEqual(["115", "317", "407"]);
    const broken = structuredClone(json) as Record<string, { utterances: Array<Record<string, unknown>> }>;
    broken["115"]!.utterances[1]!.nlu = "not frames";
    expect(() => checkDialogs(broken, path)).toThrow(/does not have MediTOD's format: .*115.*utterances.*1.*nlu/);
  });

  it("loads a user-given release directory with an out-of-domain split", () => {
    const dir = join(scratch, "with-ood");
    cpSync(BUNDLED_MEDITOD_DIR, dir, { recursive: true });
    writeFileSync(join(dir, "ood_ids.json"), JSON.stringify(["317"]));
    const release = loadMeditod(dir);
    expect(release.splits.ood).toEqual(["317"]);
    expect(datasetStats(release).ood).toEqual({ dialogues: 1, utterances: 107, patient_turns: 53, doctor_turns: 54 });
  });

  it("names the file and JSON path of malformed data", () => {
    const dir = join(scratch, "broken");
    cpSync(BUNDLED_MEDITOD_DIR, dir, { recursive: true });
    writeFileSync(join(dir, "dialogs.json"), JSON.stringify({ "1": { utterances: [{ speaker: "doctor", uttr_id: 0, text: 3, actions: [] }] } }));
    expect(() => loadMeditod(dir)).toThrow(/dialogs\.json.*1\.utterances\.0\.text/);
    expect(() => loadMeditod(join(scratch, "missing"))).toThrow(AnamnesisError);
  });

  it("rejects split files that name missing dialogues", () => {
    const dir = join(scratch, "bad-split");
    cpSync(BUNDLED_MEDITOD_DIR, dir, { recursive: true });
    writeFileSync(join(dir, "test_ids.json"), JSON.stringify(["999"]));
    expect(() => loadMeditod(dir)).toThrow(/999/);
  });
});

describe("turn-level views", () => {
  it("gives one NLU example per patient turn with history and the state before it", () => {
    const examples = nluExamples(dataset, "test");
    expect(examples).toHaveLength(74);
    const first = examples[0]!;
    expect(first).toMatchObject({ dialogueId: "407", turn: 1, previousState: {} });
    expect(first.history).toHaveLength(1);
    expect(examples[1]!.previousState).toEqual(first.goldState);
  });

  it("gives policy and NLG examples for doctor turns except the opening one", () => {
    const policy = policyExamples(dataset, "test");
    const nlg = nlgExamples(dataset, "test");
    expect(policy).toHaveLength(74);
    expect(nlg.map((example) => example.turn)).toEqual(policy.map((example) => example.turn));
    expect(policy[0]!.turn).toBe(2);
    const utterances = dataset.dialogues.get("407")!.utterances;
    const previous = utterances[1]!;
    expect(previous.speaker === "patient" && policy[0]!.state).toEqual(previous.speaker === "patient" ? previous.dialog_state : null);
    expect(nlg[0]!.gold).toBe(utterances[2]!.text);
  });
});
