import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileHolds, writeFileAtomic, writeFileAtomicSyncedLater } from "../../eval/shared/run-directory.ts";
import { tempDirForTest } from "../temp-dirs.ts";

describe("run directory files", () => {
  it("fileHolds compares the whole content, not only the size", () => {
    const dir = tempDirForTest();
    const path = join(dir, "predictions.jsonl");
    expect(fileHolds(path, "")).toBe(false);
    writeFileSync(path, '{"turn":1}\n{"turn":2}\n');
    expect(fileHolds(path, '{"turn":1}\n{"turn":2}\n')).toBe(true);
    // Same byte length, lines swapped: a file out of order must be rewritten.
    expect(fileHolds(path, '{"turn":2}\n{"turn":1}\n')).toBe(false);
    expect(fileHolds(path, '{"turn":1}\n')).toBe(false);
  });

  it("writes atomically with or without forcing the file to disk", () => {
    const dir = tempDirForTest();
    const path = join(dir, "report.md");
    writeFileAtomic(path, "first\n");
    const before = statSync(path).ino;
    writeFileAtomic(path, "second\n", { durable: false });
    expect(readFileSync(path, "utf8")).toBe("second\n");
    // Renamed into place, not written over: a reader holding the old file never sees half of the new one.
    expect(statSync(path).ino).not.toBe(before);
  });

  it("a file synced later is in place at once, and its promise settles when it is on disk", async () => {
    const dir = tempDirForTest();
    const path = join(dir, "run.json");
    writeFileAtomic(path, "{}\n");
    const before = statSync(path).ino;
    const durable = writeFileAtomicSyncedLater(path, '{"split":"test"}\n');
    // Readers see the whole new file before the sync finishes: the run goes on while the disk catches up.
    expect(readFileSync(path, "utf8")).toBe('{"split":"test"}\n');
    expect(statSync(path).ino).not.toBe(before);
    await expect(durable).resolves.toBeUndefined();
  });
});
