import { AnamnesisError } from "../foundation/errors.ts";

/**
 * A small RFC 4180 CSV reader: comma-separated fields, `"`-quoted fields that may hold commas, line
 * breaks and doubled quotes (`""` → `"`), records ended by CRLF, LF or CR, and a UTF-8 byte-order mark
 * at the start ignored. Line breaks inside quoted fields are kept exactly as written (a CRLF stays a
 * CRLF). A trailing line break does not start an empty record, and blank lines are skipped.
 *
 * Strict where being lenient would silently change data: a quote that is never closed, or text
 * between a closing quote and the next comma or line break, is an error naming the line. A quote
 * inside an unquoted field (`5" tall`) is kept as a character, as Python's csv module does.
 */

export interface CsvOptions {
  /** What errors call the text, e.g. its path. Default `CSV`. */
  readonly source?: string;
}

/** The records of a CSV text, each a list of fields. */
export function parseCsv(text: string, options: CsvOptions = {}): string[][] {
  const source = options.source ?? "CSV";
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  /** The field began with a quote (even if now closed). */
  let quoted = false;
  /** Inside an open quoted field. */
  let inQuotes = false;
  /** The current record has content: a field separator, a character or a quoted (possibly empty) field. */
  let started = false;
  let line = 1;
  let quoteLine = 1;

  const endField = () => {
    record.push(field);
    field = "";
    quoted = false;
  };
  const endRecord = () => {
    if (started) {
      endField();
      records.push(record);
    }
    record = [];
    field = "";
    quoted = false;
    started = false;
  };

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i += 1;
        continue;
      }
      if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line += 1;
      field += c;
      i += 1;
      continue;
    }
    if (c === ",") {
      started = true;
      endField();
      i += 1;
      continue;
    }
    if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line += 1;
      continue;
    }
    if (quoted) {
      throw new AnamnesisError("INVALID_DATA", `${source}:${line}: unexpected ${JSON.stringify(c)} after the closing quote of a field (a quote inside a quoted field is written "")`);
    }
    if (c === '"' && field === "") {
      quoted = true;
      inQuotes = true;
      started = true;
      quoteLine = line;
      i += 1;
      continue;
    }
    field += c;
    started = true;
    i += 1;
  }
  if (inQuotes) throw new AnamnesisError("INVALID_DATA", `${source}:${quoteLine}: a quoted field opened on this line is never closed`);
  endRecord();
  return records;
}

/**
 * The records of a CSV text with a header row, as objects keyed by column name. Every record must have
 * as many fields as the header.
 */
export function parseCsvObjects(text: string, options: CsvOptions = {}): Array<Record<string, string>> {
  const source = options.source ?? "CSV";
  const [header, ...rows] = parseCsv(text, options);
  if (!header) return [];
  return rows.map((row, index) => {
    if (row.length !== header.length) {
      throw new AnamnesisError("INVALID_DATA", `${source}: record ${index + 1} has ${row.length} fields, the header has ${header.length}`);
    }
    return Object.fromEntries(header.map((name, column) => [name, row[column]!]));
  });
}
