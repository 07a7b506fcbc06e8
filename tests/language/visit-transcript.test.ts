import { describe, expect, it } from "vitest";
import { parseVisitTranscript } from "../../src/language/visit-transcript.ts";

describe("a recorded visit's transcript", () => {
  it("reads each tagged line as a turn, a companion's as the patient's side", () => {
    const turns = parseVisitTranscript(
      "[doctor] how is she doing ?\n[patient_guest] she's had a fever since monday .\n[patient] my ear hurts .",
    );
    expect(turns).toEqual([
      { speaker: "doctor", guest: false, text: "how is she doing ?" },
      { speaker: "patient", guest: true, text: "she's had a fever since monday ." },
      { speaker: "patient", guest: false, text: "my ear hurts ." },
    ]);
  });

  it("joins an untagged line, and a tag that names no speaker, to the turn before", () => {
    const turns = parseVisitTranscript(
      "[doctor] let's look at your knee .\nit looks a little swollen .\n[ inaudible 00:09:25 ] and warm .\n\n[patient] okay .",
    );
    expect(turns.map((turn) => turn.text)).toEqual([
      "let's look at your knee . it looks a little swollen . and warm .",
      "okay .",
    ]);
  });

  it("has no turns when no line names a speaker (and keeps none of the untagged text)", () => {
    expect(parseVisitTranscript("just some text\nwith no speakers")).toEqual([]);
  });
});
