import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDoctorStatements } from "../../src/language/doctor-statements.ts";
import { parseVisitTranscript } from "../../src/language/visit-transcript.ts";

/** A short visit written for these tests (not from any dataset): a twisted knee, examined, x-rayed and planned. */
const KNEE_VISIT = readFileSync(new URL("../fixtures/visit-notes/knee-visit.txt", import.meta.url), "utf8");

/** Words only: lower case, no punctuation, one space apart. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("the doctor's statements of a recorded visit", () => {
  const turns = parseVisitTranscript(KNEE_VISIT);
  const doctor = readDoctorStatements(turns);

  it("takes the examination findings by body system, in the doctor's own words", () => {
    expect(doctor.examination).toEqual([
      {
        system: "Musculoskeletal",
        findings: [
          "On right knee exam, there is moderate swelling and tenderness to palpation over the medial joint line.",
          "Range of motion is limited by pain.",
        ],
      },
      { system: "Respiratory", findings: ["Lungs are clear."] },
    ]);
    // Every finding is said by the doctor, word for word (less the "your" that addressed the patient).
    const said = words(
      turns
        .filter((turn) => turn.speaker === "doctor")
        .map((turn) => turn.text)
        .join(" "),
    );
    for (const finding of doctor.examination.flatMap((system) => system.findings))
      expect(said.replace(/\byour /g, "")).toContain(words(finding));
  });

  it("takes the results read out while the x-ray is on screen, and only those", () => {
    expect(doctor.results).toEqual(["X-ray shows no fracture.", "The joint spaces are preserved."]);
  });

  it("splits the assessment and plan into the problems the doctor opened, each statement by what it says", () => {
    expect(doctor.assessmentAndPlan).toEqual([
      {
        problem: "Right knee pain",
        reasoning: ["I think you have a medial meniscus tear."],
        testing: ["I'm going to order an mri of your right knee."],
        treatment: ["Continue ibuprofen 400 mg 3 times a day."],
        counseling: ["I want you to rest, ice and elevate the knee."],
      },
      {
        problem: "Hypertension",
        reasoning: ["Your blood pressure is well controlled."],
        testing: [],
        treatment: ["Continue lisinopril 10 mg once a day."],
        counseling: [],
      },
    ]);
    expect(doctor.patientAgrees).toBe(true);
  });

  it("never takes the patient's words as the doctor's findings (negative control)", () => {
    const all = JSON.stringify(doctor);
    expect(all).not.toMatch(/basketball|swelled up|helps a little/);
  });

  it("writes no results when no test was read out, and no agreement when the patient refuses", () => {
    const withoutXray = KNEE_VISIT.split("\n")
      .filter((line) => !line.includes("x-ray"))
      .join("\n")
      .replace("sounds good .", "no , i don't want the mri .");
    const other = readDoctorStatements(parseVisitTranscript(withoutXray));
    expect(other.results).toEqual([]);
    expect(other.patientAgrees).toBe(false);
  });

  it("files each part of one statement under the system it examines, by the first system it names", () => {
    const split = readDoctorStatements(
      parseVisitTranscript(
        "[doctor] on heart exam , a three out of six systolic ejection murmur , on lung exam , some fine crackles at the bases and some edema .\n[patient] okay .",
      ),
    );
    expect(split.examination).toEqual([
      { system: "Cardiovascular", findings: ["On heart exam, a 3/6 systolic ejection murmur."] },
      { system: "Respiratory", findings: ["On lung exam, some fine crackles at the bases and some edema."] },
    ]);
  });

  it("takes a finding the transcript gives to the patient as the doctor's when only a doctor says it", () => {
    const mislabelled = readDoctorStatements(
      parseVisitTranscript(
        "[doctor] let me examine you now .\n[patient] on your knee exam there is an effusion .\n[doctor] okay .",
      ),
    );
    expect(mislabelled.examination).toEqual([
      { system: "Musculoskeletal", findings: ["On knee exam there is an effusion."] },
    ]);
  });
});
