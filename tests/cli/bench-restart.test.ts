import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-restart-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("anamnesis bench --restart", () => {
  it("refuses to resume a different run, and --restart discards only the run's own files", async () => {
    const out = join(scratch, "run");
    expect((await runCli(["bench", "--suite", "meditod-nlu", "--limit", "2", "--out", out])).status).toBe(0);
    writeFileSync(join(out, "notes.txt"), "mine");

    const clash = await runCli(["bench", "--suite", "meditod-nlu", "--limit", "3", "--out", out]);
    expect(clash.status).toBe(2);
    expect(clash.stderr).toMatch(/holds another run \(limit 2 → 3\)/);

    const restarted = await runCli([
      "bench",
      "--suite",
      "meditod-nlu",
      "--limit",
      "3",
      "--out",
      out,
      "--restart",
      "--json",
    ]);
    expect(restarted.status).toBe(0);
    expect(JSON.parse(restarted.stdout).runs["meditod-nlu"]).toMatchObject({ predicted: 3, resumed: 0 });
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(out, "report.html"))).toBe(true);
  });
});
