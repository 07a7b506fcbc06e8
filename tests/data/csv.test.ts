import { describe, expect, it } from "vitest";
import { parseCsv, parseCsvObjects } from "../../src/data/csv.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";

describe("CSV reader (RFC 4180)", () => {
  it("reads plain fields and records ended by CRLF, LF or CR", () => {
    expect(parseCsv("a,b,c\r\n1,2,3\n4,5,6\r7,8,9")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
      ["4", "5", "6"],
      ["7", "8", "9"],
    ]);
  });

  it("does not start a record after the final line break, and skips blank lines", () => {
    expect(parseCsv("a,b\r\n\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(parseCsv("")).toEqual([]);
  });

  it("keeps commas, doubled quotes and line breaks of quoted fields exactly", () => {
    const text = 'ID,text\r\n0,"Doctor: Hi, how are you?\r\nPatient: ""Fine,"" thanks."\r\n1,"line one\nline two"\r\n';
    expect(parseCsv(text)).toEqual([
      ["ID", "text"],
      ["0", 'Doctor: Hi, how are you?\r\nPatient: "Fine," thanks.'],
      ["1", "line one\nline two"],
    ]);
  });

  it("keeps empty fields, quoted or not, and a record that is one empty quoted field", () => {
    expect(parseCsv('a,,""\n,\n""\n')).toEqual([["a", "", ""], ["", ""], [""]]);
  });

  it("ignores a byte-order mark at the start only", () => {
    expect(parseCsv("\ufeffID,x\n1,\ufeffy")).toEqual([
      ["ID", "x"],
      ["1", "\ufeffy"],
    ]);
  });

  it("keeps a quote inside an unquoted field as a character", () => {
    expect(parseCsv('5" tall,x\n')).toEqual([['5" tall', "x"]]);
  });

  it("rejects a quoted field that is never closed, naming the line it opened on", () => {
    expect(() => parseCsv('a,b\n1,"never\nclosed', { source: "f.csv" })).toThrow(/^f\.csv:2: a quoted field opened on this line is never closed$/);
  });

  it("rejects text after a closing quote, naming the line", () => {
    expect(() => parseCsv('a\n"x\ny"z\n', { source: "f.csv" })).toThrow(AnamnesisError);
    expect(() => parseCsv('a\n"x\ny"z\n', { source: "f.csv" })).toThrow(/^f\.csv:3: unexpected "z" after the closing quote/);
  });

  it("reads objects keyed by the header and rejects ragged records", () => {
    expect(parseCsvObjects("Prompt,Completion\r\n\"a, b\",c\r\n")).toEqual([{ Prompt: "a, b", Completion: "c" }]);
    expect(() => parseCsvObjects("a,b\n1,2,3\n", { source: "f.csv" })).toThrow("f.csv: record 1 has 3 fields, the header has 2");
  });
});
