import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

/** `anamnesis chat`'s storage flags: a bad value or an unusable database path is one line and exit 2. */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-chat-flags-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const aFile = join(scratch, "a-file");
writeFileSync(aFile, "not a folder");

describe("anamnesis chat storage flags", () => {
  for (const [what, args, message] of [
    ["an unknown --db-sync", ["--db-sync", "fast"], /--db-sync must be full or normal \(got 'fast'\)/],
    ["a non-positive --idle-minutes", ["--idle-minutes", "0"], /--idle-minutes must be a positive number/],
    [
      "a --db under a file",
      ["--db", join(aFile, "sessions.db")],
      /--db .*a-file\/sessions\.db: cannot open the sessions database/,
    ],
    ["a --db that is a directory", ["--db", scratch], /--db .*: cannot open the sessions database/],
    [
      "a --timeout-ms that is not a positive integer",
      ["--timeout-ms", "soon"],
      /--timeout-ms must be a positive integer \(got 'soon'\)/,
    ],
  ] as const) {
    it(`refuses ${what} with one line and exit code 2`, async () => {
      const result = await runCli(["chat", "--port", "0", ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    });
  }
});
