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

/** What ends an unquoted field's run of characters: a separator or a line break, e.g. the `,` of `5" tall,x`. */
const FIELD_END = /[,\r\n]/g;

/** One pass over a CSV text: the record and field being read, and where in the text it is. */
class CsvReader {
  private readonly records: string[][] = [];
  private record: string[] = [];
  private field = "";
  /** The field began with a quote (even if now closed). */
  private quoted = false;
  /** Inside an open quoted field. */
  private inQuotes = false;
  /** The current record has content: a field separator, a character or a quoted (possibly empty) field. */
  private started = false;
  private line = 1;
  private quoteLine = 1;
  /** The next CR of the text at or after the last quoted run counted (-1: not searched yet). */
  private nextCarriageReturn = -1;

  constructor(
    private readonly text: string,
    private readonly source: string,
  ) {}

  /** Every record of the text. */
  read(): string[][] {
    const { text } = this;
    let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    while (i < text.length) i += this.inQuotes ? this.readQuoted(i) : this.readUnquoted(i);
    if (this.inQuotes) throw new AnamnesisError("INVALID_DATA", `${this.source}:${this.quoteLine}: a quoted field opened on this line is never closed`);
    this.endRecord();
    return this.records;
  }

  /**
   * Reads at `i` inside a quoted field: a doubled quote, the closing quote, or the run of characters up
   * to the next quote, kept as written (one slice, not a character at a time). Returns the characters read.
   */
  private readQuoted(i: number): number {
    const { text } = this;
    if (text[i] === '"') {
      if (text[i + 1] === '"') {
        this.field += '"';
        return 2;
      }
      this.inQuotes = false;
      return 1;
    }
    const quote = text.indexOf('"', i);
    const end = quote < 0 ? text.length : quote;
    this.countLineBreaks(i, end);
    this.field += text.slice(i, end);
    return end - i;
  }

  /** Counts the line breaks in `text[from, to)` (CRLF once), so errors can name the line. */
  private countLineBreaks(from: number, to: number): void {
    const { text } = this;
    for (let at = text.indexOf("\n", from); at >= 0 && at < to; at = text.indexOf("\n", at + 1)) this.line += 1;
    // A lone CR ends a line too; where the next CR is, is remembered, so the text is searched once.
    if (this.nextCarriageReturn < from) this.nextCarriageReturn = this.carriageReturnFrom(from);
    while (this.nextCarriageReturn < to) {
      if (text[this.nextCarriageReturn + 1] !== "\n") this.line += 1;
      this.nextCarriageReturn = this.carriageReturnFrom(this.nextCarriageReturn + 1);
    }
  }

  /** The index of the next CR at or after `from`, or the text's length when there is none. */
  private carriageReturnFrom(from: number): number {
    const at = this.text.indexOf("\r", from);
    return at < 0 ? this.text.length : at;
  }

  /**
   * Reads at `i` outside quotes: a separator, a line break, a field's opening quote, or the run of
   * characters of an unquoted field up to the next separator or line break. Returns the characters read.
   */
  private readUnquoted(i: number): number {
    const c = this.text[i]!;
    if (c === ",") {
      this.started = true;
      this.endField();
      return 1;
    }
    if (c === "\r" || c === "\n") {
      this.endRecord();
      this.line += 1;
      return c === "\r" && this.text[i + 1] === "\n" ? 2 : 1;
    }
    if (this.quoted) {
      throw new AnamnesisError("INVALID_DATA", `${this.source}:${this.line}: unexpected ${JSON.stringify(c)} after the closing quote of a field (a quote inside a quoted field is written "")`);
    }
    this.started = true;
    if (c === '"' && this.field === "") {
      this.quoted = true;
      this.inQuotes = true;
      this.quoteLine = this.line;
      return 1;
    }
    FIELD_END.lastIndex = i;
    const end = FIELD_END.exec(this.text)?.index ?? this.text.length;
    this.field += this.text.slice(i, end);
    return end - i;
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = "";
    this.quoted = false;
  }

  /** Ends the record being read; one with no content (a blank line, the text's last line break) is no record. */
  private endRecord(): void {
    if (this.started) {
      this.endField();
      this.records.push(this.record);
    }
    this.record = [];
    this.field = "";
    this.quoted = false;
    this.started = false;
  }
}

/** The records of a CSV text, each a list of fields. */
export function parseCsv(text: string, options: CsvOptions = {}): string[][] {
  return new CsvReader(text, options.source ?? "CSV").read();
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
