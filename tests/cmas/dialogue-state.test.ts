import { describe, expect, it } from "vitest";
import { DialogueStateTracker, applyFrames } from "../../src/cmas/dialogue-state.ts";
import type { SlotEntry } from "../../src/cmas/schemas.ts";
import { loadMeditod } from "../../src/data/meditod.ts";

const dataset = loadMeditod();

describe("DialogueStateTracker", () => {
  it("reproduces every dialog_state of the bundled sample, in content and in key and list order", () => {
    let checked = 0;
    for (const dialogue of dataset.dialogues.values()) {
      const tracker = new DialogueStateTracker();
      for (const utterance of dialogue.utterances) {
        if (utterance.speaker !== "patient") continue;
        const state = tracker.update(utterance.nlu);
        expect(JSON.stringify(state), `dialogue ${dialogue.id} turn ${utterance.uttr_id}`).toBe(
          JSON.stringify(utterance.dialog_state),
        );
        checked += 1;
      }
    }
    expect(checked).toBe(178);
  });

  it("overwrites attributes, replaces lists and appends new values", () => {
    const state = applyFrames({ positive_symptom: [{ value: "coughing", onset: "a week ago", location: ["chest"] }] }, [
      { slots: { positive_symptom: [{ value: "coughing", location: ["throat"], severity: "4" }, { value: "fever" }] } },
    ]);
    expect(state).toEqual({
      positive_symptom: [
        { value: "coughing", onset: "a week ago", location: ["throat"], severity: "4" },
        { value: "fever" },
      ],
    });
  });

  it("moves a value to its new status keeping its attributes and its first-mention place", () => {
    const tracker = new DialogueStateTracker();
    tracker.update([{ slots: { negative_symptom: [{ value: "pain", location: ["back"] }, { value: "fever" }] } }]);
    tracker.update([{ slots: { positive_symptom: [{ value: "coughing" }] } }]);
    const state = tracker.update([{ slots: { positive_symptom: [{ value: "fever", onset: "yesterday" }] } }]);
    expect(state).toEqual({
      positive_symptom: [{ value: "fever", onset: "yesterday" }, { value: "coughing" }],
      negative_symptom: [{ value: "pain", location: ["back"] }],
    });
    expect(Object.keys(state)).toEqual(["positive_symptom", "negative_symptom"]);
  });

  describe("value-and-site identity (the live history)", () => {
    const swollenAnkles = { positive_symptom: [{ value: "swelling", location: ["ankle"], onset: "a week ago" }] };

    it("keeps an affirmed finding when the same value is denied at other sites only", () => {
      const tracker = new DialogueStateTracker(swollenAnkles, "value-and-site");
      const state = tracker.update([{ slots: { negative_symptom: [{ value: "swelling", location: ["leg"] }] } }]);
      expect(state).toEqual({
        positive_symptom: [{ value: "swelling", location: ["ankle"], onset: "a week ago" }],
        negative_symptom: [{ value: "swelling", location: ["leg"] }],
      });
    });

    it("still moves the finding when the denial names its site, or names none", () => {
      const denials: SlotEntry[] = [{ value: "swelling", location: ["ankle", "leg"] }, { value: "swelling" }];
      for (const denied of denials) {
        const state = applyFrames(swollenAnkles, [{ slots: { negative_symptom: [denied] } }], "value-and-site");
        expect(Object.keys(state)).toEqual(["negative_symptom"]);
      }
    });

    it("is not MediTOD's rule, under which the later denial moves the entry (negative control)", () => {
      const state = applyFrames(swollenAnkles, [
        { slots: { negative_symptom: [{ value: "swelling", location: ["leg"] }] } },
      ]);
      expect(state).toEqual({ negative_symptom: [{ value: "swelling", location: ["leg"], onset: "a week ago" }] });
    });

    it("continues after save and restore with the same identity", () => {
      const tracker = new DialogueStateTracker(swollenAnkles, "value-and-site");
      const restored = DialogueStateTracker.restore(tracker.saved(), "value-and-site");
      const state = restored.update([{ slots: { negative_symptom: [{ value: "swelling", location: ["leg"] }] } }]);
      expect(state.positive_symptom).toEqual([{ value: "swelling", location: ["ankle"], onset: "a week ago" }]);
    });
  });

  it("updates the single value-less entry of travel and basic_information", () => {
    const tracker = new DialogueStateTracker();
    tracker.update([{ slots: { travel: [{ status: "traveled" }], basic_information: [{ age: "60" }] } }]);
    const state = tracker.update([{ slots: { travel: [{ destination: "mexico" }] } }]);
    expect(state).toEqual({
      travel: [{ status: "traveled", destination: "mexico" }],
      basic_information: [{ age: "60" }],
    });
  });

  it("does not share arrays with its input or its previous outputs", () => {
    const location = ["chest"];
    const tracker = new DialogueStateTracker();
    const first = tracker.update([{ slots: { positive_symptom: [{ value: "pain", location }] } }]);
    location.push("arm");
    (first.positive_symptom![0]!.location as string[]).push("leg");
    expect(tracker.state()).toEqual({ positive_symptom: [{ value: "pain", location: ["chest"] }] });
  });
});
