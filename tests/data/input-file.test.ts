import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, describe, expect, it } from "vitest";
import { inputName, openInput, readInputText, resolveInputPath } from "../../src/data/input-file.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-input-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("input files", () => {
  const file = join(scratch, "a.txt");
  writeFileSync(file, "one\ntwo\n");

  it("reads a file whole or as a stream", async () => {
    expect(readInputText(file, "input file")).toBe("one\ntwo\n");
    expect(await text(openInput(file, "input file"))).toBe("one\ntwo\n");
  });

  it("names a missing file and refuses a directory, before reading", () => {
    expect(() => readInputText(join(scratch, "none.jsonl"), "predictions file")).toThrow(`predictions file not found: ${join(scratch, "none.jsonl")}`);
    expect(() => openInput(scratch, "input file")).toThrow("is a directory, not a file");
  });

  it("leaves - as standard input", () => {
    expect(resolveInputPath("-")).toBe("-");
    expect(resolveInputPath("x.csv")).toBe(join(process.cwd(), "x.csv"));
    expect(inputName("-")).toBe("standard input");
    expect(inputName(file)).toBe(file);
  });
});
