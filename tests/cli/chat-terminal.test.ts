import { describe, expect, it } from "vitest";
import { runBin } from "./helpers.ts";

describe("anamnesis chat --terminal", () => {
  it("holds a conversation over piped input, one doctor reply per patient line, and exits cleanly", () => {
    const result = runBin(["chat", "--terminal"], { input: "I've had a cough for two weeks.\n\nNo blood.\n" });
    expect(result.status).toBe(0);
    const lines = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("doctor:") || line.startsWith("patient: I") || line.startsWith("patient: No"));
    expect(lines[0]).toBe("doctor: What brings you in today?");
    expect(lines.filter((line) => line.startsWith("doctor:"))).toHaveLength(3);
    expect(lines).toContain("patient: No blood.");
    expect(result.stderr).toBe("");
  });
});

describe("anamnesis chat --terminal commands", () => {
  it("takes /help, /state, /note, /simulate and quit as commands, never as the patient's answers", () => {
    const result = runBin(["chat", "--terminal"], {
      input: "/help\nI've had a cough for two weeks.\n/state\n/note\n/simulate\n/simulate 317\nquit\nNo blood.\n",
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("/state             the CMAS patient profile so far (JSON)");
    // One doctor reply for the one answer before the simulation; none for the commands or after quit.
    const beforeSimulation = result.stdout.slice(0, result.stdout.indexOf("(a new history"));
    expect(beforeSimulation.match(/^doctor: /gm)).toHaveLength(2);
    expect(beforeSimulation).toMatch(
      /"positive_symptom": \[\n\s+\{\n\s+"value": "coughing",\n\s+"onset": "two weeks ago"/,
    );
    expect(beforeSimulation).toContain("## Presenting complaint\n\ncough\n");
    expect(beforeSimulation).toMatch(
      /Cases:\n {2}chest-pain-acs {2}A 58-year-old man[^]*\n {2}115 {2}MediTOD dialogue 115/,
    );
    // The simulated patient of 317 answers to the end: a COVID-19 working diagnosis closes it.
    expect(result.stdout).toMatch(
      /\(a new history: MediTOD dialogue 317[^]*doctor: [^\n]*COVID-19[^]*\(the history has ended/,
    );
    expect(result.stdout).not.toMatch(/doctor: [^\n]*\n[^\n]*No blood/);
    expect(result.stderr).toBe("");
  });
});
