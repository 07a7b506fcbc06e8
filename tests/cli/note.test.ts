import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "anamnesis-note-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("anamnesis note", () => {
  it("writes a MediTOD dialogue's note from its gold final state, as Markdown or JSON", async () => {
    const markdown = await runCli(["note", "--dialogue", "115"]);
    expect(markdown.status).toBe(0);
    expect(markdown.stdout).toMatch(/^# Clinical note — MediTOD dialogue 115\n/);
    expect(markdown.stdout).toContain("## Presenting complaint\n\ncough, dyspnea\n");
    expect(markdown.stdout).toContain("## Working impression\n\nchronic bronchitis — supported by");
    const json = await runCli(["note", "--dialogue", "317", "--format", "json"]);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      presentingComplaint: ["cough"],
      workingImpression: { disease: "covid-19 virus disease" },
    });
  });

  it("writes a saved chat session's note", async () => {
    const session = join(dir, "session.json");
    writeFileSync(
      session,
      JSON.stringify({
        id: "abc",
        history: [],
        state: { positive_symptom: [{ value: "dysuria" }, { value: "urinary frequency" }] },
        presenting: ["dysuria"],
        redFlags: [],
      }),
    );
    const result = await runCli(["note", "--session", session, "--format", "json"]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      presentingComplaint: ["dysuria"],
      workingImpression: { disease: "urinary tract infection" },
    });
  });

  it("puts the red flags a saved chat raised at the top of its note, with the patient's words", async () => {
    const session = join(dir, "flagged.json");
    const raised = {
      id: "saddle_numbness_or_sphincter_change",
      label: "Numbness down below or trouble passing water",
      urgency: "emergency",
      advice: "Go to the emergency department now.",
      evidence: ['said: "numb down below"'],
      turn: 1,
    };
    const state = { positive_symptom: [{ value: "back pain" }] };
    writeFileSync(session, JSON.stringify({ id: "flagged", history: [], state, redFlags: [raised] }));
    const result = await runCli(["note", "--session", session]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^# Clinical note — session flagged\n\n## Red flags\n\n- \*\*Numbness down below or trouble passing water\*\* \(emergency\): said: "numb down below"\n\n## Presenting complaint\n\nback pain\n/,
    );
    // Negative control: the same state without the chat's record raises nothing.
    writeFileSync(session, JSON.stringify({ id: "flagged", history: [], state, redFlags: [] }));
    expect((await runCli(["note", "--session", session])).stdout).toContain("## Red flags\n\nNone identified.");
  });

  it.each([
    [[], /exactly one of --dialogue/],
    [["--dialogue", "115", "--format", "pdf"], /--format must be markdown or json/],
    [["--dialogue", "nope"], /unknown dialogue 'nope'/],
    [["--session", "/nonexistent/session.json"], /session file not found/],
  ])("refuses %j with one line and exit code 2", async (args, message) => {
    const result = await runCli(["note", ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a file that is not a saved session", async () => {
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ hello: "world" }));
    const result = await runCli(["note", "--session", other]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/is not a saved chat session: state/);
  });
});
