import { describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

describe("anamnesis chat --terminal", () => {
  it("holds a conversation over piped input, one doctor reply per patient line, and exits cleanly", () => {
    const result = runCli(["chat", "--terminal"], { input: "I've had a cough for two weeks.\n\nNo blood.\n" });
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n").filter((line) => line.startsWith("doctor:") || line.startsWith("patient: I") || line.startsWith("patient: No"));
    expect(lines[0]).toBe("doctor: What brings you in today?");
    expect(lines.filter((line) => line.startsWith("doctor:"))).toHaveLength(3);
    expect(lines).toContain("patient: No blood.");
    expect(result.stderr).toBe("");
  });
});
