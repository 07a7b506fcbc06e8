import { describe, expect, it } from "vitest";
import {
  buildEmbeddedNoteEngine,
  EmbeddedLoglikelihood,
  NearestNoteWriter,
} from "../../../../src/modules/embedded/notes/index.ts";
import { KneserNeyByteLm } from "../../../../src/modules/embedded/notes/ngram-lm.ts";
import type { NoteDocument } from "../../../../src/data/note-dataset.ts";

const training: NoteDocument[] = [
  { id: "t0", input: "Doctor: Any allergies? Patient: None that I know of.", target: "No known drug allergies." },
  {
    id: "t1",
    input: "Doctor: Do you smoke? Patient: A pack a day for thirty years.",
    target: "Smokes one pack per day for 30 years.",
  },
  {
    id: "t2",
    input: "Doctor: Allergies to medications? Patient: Penicillin gives me hives.",
    target: "Penicillin (hives).",
  },
  { id: "t3", input: "Doctor: Any drug allergies at all? Patient: No.", target: "No known drug allergies." },
];
const instructions = "Instructions: write a note.\n";

describe("embedded note writer (nearest training note)", () => {
  it("copies the note of the training document with the most similar input", async () => {
    const writer = new NearestNoteWriter(training);
    const result = await writer.write({
      instructions,
      input: "Doctor: Do you drink or smoke? Patient: I smoke, a pack daily.",
    });
    expect(result.text).toBe("Smokes one pack per day for 30 years.");
    expect(result.exemplars).toEqual(["t1"]);
  });

  it("falls back to the most common training note when no word is shared", async () => {
    const result = await new NearestNoteWriter(training).write({ instructions, input: "Hmm." });
    expect(result).toMatchObject({ text: "No known drug allergies.", exemplars: ["t0"] });
  });

  it("never copies the evaluated document's own row when it is a training row", async () => {
    const own = training[2]!;
    expect((await new NearestNoteWriter(training).write({ instructions, input: own.input })).exemplars).toEqual(["t2"]);
    const heldOut = await new NearestNoteWriter(training, new Set([own.input])).write({
      instructions,
      input: own.input,
    });
    expect(heldOut.exemplars).not.toContain("t2");
  });
});

describe("embedded log-likelihood (byte 8-gram Kneser-Ney)", () => {
  const targets = training.map((document) => document.target);

  it("scores texts outside the training rows with the model of every training target", async () => {
    const scorer = new EmbeddedLoglikelihood(targets);
    const text = "No known allergies.";
    expect((await scorer.loglikelihoodRolling(text)).logLikelihood).toBe(
      new KneserNeyByteLm(targets, { order: 8 }).logLikelihood(text),
    );
    // A text equal to a training target, from a document that is not a training row, sees that target.
    expect(scorer.modelFor("Penicillin (hives).")).toBe(scorer.modelFor(text));
  });

  it("scores a held-out training target with a model that never saw it", async () => {
    const text = "Penicillin (hives).";
    const full = await new EmbeddedLoglikelihood(targets).loglikelihoodRolling(text);
    const heldOut = await new EmbeddedLoglikelihood(targets, new Set([text])).loglikelihoodRolling(text);
    expect(heldOut.logLikelihood).toBeLessThan(full.logLikelihood - 10);
  });

  it("holds out exactly the evaluated documents that are training rows", () => {
    expect(buildEmbeddedNoteEngine(training, [{ id: "v0", input: "x", target: "y" }]).heldOut).toBe(0);
    expect(buildEmbeddedNoteEngine(training, training).heldOut).toBe(4);
  });
});
