import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileHolds, writeFileAtomic } from "../../eval/shared/run-directory.ts";
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
});
