import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DialogueStateTracker } from "../../src/cmas/dialogue-state.ts";
import { describeIssues, dialogueStateSchema, doctorActionsSchema, nluFramesSchema } from "../../src/cmas/schemas.ts";
import { datasetStats, getDialogue, loadMeditod, splitIds } from "../../src/data/meditod.ts";
import { BUNDLED } from "../../src/foundation/package-paths.ts";
import lexicon from "../../ontology/lexicon.json" with { type: "json" };
import { CORRECTIONS, DIALOGUE_ID, NEW_CONCEPTS, OUTPUT_PATH, convert, readRaw, render } from "../../data/meditod-dev/convert.ts";

const DEV_DIR = BUNDLED.meditodDev;
const dataset = loadMeditod(DEV_DIR);
const dialogue = getDialogue(dataset, DIALOGUE_ID);

describe("MediTOD development dialogue RES0001 (our conversion of the annotation tool's sample)", () => {
  it("loads with the MediTOD loader as a valid-only release", () => {
    expect(dataset.splits).toEqual({ train: [], valid: [DIALOGUE_ID], test: [] });
    expect(datasetStats(dataset)).toEqual({
      train: { dialogues: 0, utterances: 0, patient_turns: 0, doctor_turns: 0 },
      valid: { dialogues: 1, utterances: 111, patient_turns: 55, doctor_turns: 56 },
      test: { dialogues: 0, utterances: 0, patient_turns: 0, doctor_turns: 0 },
    });
  });

  it("is not one of the public sample's dialogues", () => {
    expect([...loadMeditod().dialogues.keys()]).not.toContain(DIALOGUE_ID);
  });

  it("keeps the transcript verbatim and drops only the tool's trailing control item", () => {
    const { dialogue: raw } = readRaw();
    const spoken = raw.utterances.filter((utterance) => utterance.speaker === "doctor" || utterance.speaker === "patient");
    expect(raw.utterances.length - spoken.length).toBe(1);
    expect(raw.utterances.at(-1)?.speaker).toBe("control");
    expect(dialogue.utterances.map(({ speaker, uttr_id, text, keywords }) => ({ speaker, uttr_id, text, keywords }))).toEqual(spoken);
  });

  it("validates every NLU frame, dialogue state and doctor action strictly against the ontology", () => {
    for (const utterance of dialogue.utterances) {
      const parsed =
        utterance.speaker === "patient" ? nluFramesSchema.safeParse(utterance.nlu) : doctorActionsSchema.safeParse(utterance.actions);
      expect(parsed.success, `utterance ${utterance.uttr_id}: ${parsed.error ? describeIssues(parsed.error) : ""}`).toBe(true);
      if (utterance.speaker === "patient") {
        expect(dialogueStateSchema.safeParse(utterance.dialog_state).success, `state ${utterance.uttr_id}`).toBe(true);
        expect(utterance.nlu, `one frame per patient turn, as MediTOD writes them (${utterance.uttr_id})`).toHaveLength(1);
      }
    }
  });

  it("has the dialog_state our tracker computes from the NLU frames, key and list order included", () => {
    const tracker = new DialogueStateTracker();
    for (const utterance of dialogue.utterances) {
      if (utterance.speaker !== "patient") continue;
      expect(JSON.stringify(utterance.dialog_state), `turn ${utterance.uttr_id}`).toBe(JSON.stringify(tracker.update(utterance.nlu)));
    }
  });

  it("is exactly what the converter writes from the raw files", () => {
    const { dialogue: raw, annotations } = readRaw();
    expect(readFileSync(OUTPUT_PATH, "utf8")).toBe(render(convert(raw, annotations)));
  });

  it("uses only canonical values: those of the train and valid dialogues, the lexicon's concepts, or the documented new ones", () => {
    const sample = loadMeditod();
    const known = new Set<string>(NEW_CONCEPTS);
    for (const concepts of Object.values(lexicon.concepts)) for (const name of Object.keys(concepts)) known.add(name);
    // The test split is never read: only train and valid dialogues teach the conventions.
    for (const id of [...splitIds(sample, "train"), ...splitIds(sample, "valid")]) {
      for (const utterance of getDialogue(sample, id).utterances) {
        const groups = utterance.speaker === "patient" ? utterance.nlu.map((frame) => frame.slots ?? {}) : utterance.actions;
        for (const group of groups) {
          for (const entries of Object.values(group)) {
            if (Array.isArray(entries)) for (const entry of entries) if (typeof entry.value === "string") known.add(entry.value);
          }
        }
      }
    }
    const unknown = new Set<string>();
    for (const utterance of dialogue.utterances) {
      const groups = utterance.speaker === "patient" ? utterance.nlu.map((frame) => frame.slots ?? {}) : utterance.actions;
      for (const group of groups) {
        for (const [slot, entries] of Object.entries(group)) {
          if (!Array.isArray(entries) || slot === "occupation") continue; // occupations are free text
          for (const entry of entries) if (typeof entry.value === "string" && !known.has(entry.value)) unknown.add(entry.value);
        }
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it("documents every hand correction and corrects only annotated utterances, once each", () => {
    const { annotations } = readRaw();
    const uids = new Set(annotations.map((annotation) => annotation.uid));
    const corrected = CORRECTIONS.map((correction) => correction.uid);
    expect(new Set(corrected).size).toBe(corrected.length);
    for (const correction of CORRECTIONS) {
      expect(uids.has(correction.uid), correction.uid).toBe(true);
      expect(correction.reason.length, correction.uid).toBeGreaterThan(20);
      const original = annotations.filter((annotation) => annotation.uid === correction.uid).map(({ uid: _uid, ...rest }) => rest);
      expect(correction.annotations, `correction ${correction.uid} changes nothing`).not.toEqual(original);
    }
  });
});
