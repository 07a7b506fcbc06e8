/**
 * Python's `json.dumps` with its default settings, byte for byte: what the official MediTOD prompts
 * put in exemplar answers (`json.dumps(x)`) and in the state and action blocks (`json.dumps(x, indent=2)`).
 *
 * - separators: `", "` and `": "` without indent; `","` (then a newline) and `": "` with indent;
 * - `ensure_ascii=True`: every character outside printable ASCII (space … `~`) is escaped, as `\n`,
 *   `\"` and the other short escapes where JSON has one, otherwise `\uXXXX` in lower-case hex, a
 *   character beyond the BMP as its UTF-16 surrogate pair (`"😀"` → `"\ud83d\ude00"`);
 * - keys in insertion order (JavaScript keeps it too, except that integer-like keys such as `"7"` come
 *   first: MediTOD's keys are slot and attribute names, never integers);
 * - empty containers as `[]` and `{}` even when indenting.
 *
 * Numbers: integers as Python prints them; other numbers with Python's `repr` exponent form. MediTOD's
 * data holds none. `undefined` members are left out (they cannot come from parsed JSON).
 */

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** Characters `ensure_ascii` escapes: anything but printable ASCII, plus `"` and `\`. Example: `é` → `\u00e9`. */
const NEEDS_ESCAPE = /[^ -~]|["\\]/g;

/** A string literal as Python's `json.dumps` writes it with `ensure_ascii=True`. */
export function pythonJsonString(text: string): string {
  // JavaScript strings are UTF-16 already: each code unit of a surrogate pair is escaped on its own,
  // which is exactly Python's pair of `\ud83d\ude00`.
  return `"${text.replace(NEEDS_ESCAPE, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

/** Python `float.__repr__` exponent form: `1e-07`, `1e+21` (JavaScript writes `1e-7`). */
function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  return String(value).replace(/e([+-])(\d)$/, "e$10$2");
}

function dumpValue(value: unknown, indent: number | undefined, depth: number): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pythonJsonString(value);
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value !== "object") throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
  const items = Array.isArray(value)
    ? value.map((item) => dumpValue(item, indent, depth + 1))
    : Object.entries(value as Record<string, unknown>)
        .filter(([, member]) => member !== undefined)
        .map(([key, member]) => `${pythonJsonString(key)}: ${dumpValue(member, indent, depth + 1)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) return `${open}${close}`;
  if (indent === undefined) return `${open}${items.join(", ")}${close}`;
  const inner = `\n${" ".repeat(indent * (depth + 1))}`;
  return `${open}${inner}${items.join(`,${inner}`)}\n${" ".repeat(indent * depth)}${close}`;
}

/** `json.dumps(value)` or, with `indent`, `json.dumps(value, indent=indent)`. */
export function pythonJsonDumps(value: unknown, options: { indent?: number } = {}): string {
  return dumpValue(value, options.indent, 0);
}
