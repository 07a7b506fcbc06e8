/**
 * Structured output helpers: zod → JSON Schema, forgiving JSON extraction, validation, and the repair
 * request. Pure functions; the requests are sent by wrap-chat-backend.ts and with-structured-output-repair.ts.
 */
import * as z from "zod";
import type { ChatMessage, FormatError, FormatIssue } from "./spec.ts";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON Schema (draft 2020-12) of what the model must produce: the zod schema's input side. */
export function zodToJsonSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonObject;
  return jsonSchema;
}

function nullable(node: JsonObject): JsonObject {
  if (typeof node.type === "string" && node.const === undefined) {
    const withNull: JsonObject = { ...node, type: [node.type, "null"] };
    if (Array.isArray(node.enum)) withNull.enum = [...(node.enum as unknown[]), null];
    return withNull;
  }
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...(node.anyOf as unknown[]), { type: "null" }] };
  return { anyOf: [node, { type: "null" }] };
}

/**
 * Rewrites a JSON Schema for strict structured output (OpenAI `strict: true`, llama.cpp grammars):
 * every object lists all its properties in `required` and has `additionalProperties: false`;
 * a property that was optional becomes **nullable** instead (`type: [T, "null"]` or `anyOf […, null]`),
 * because strict mode rejects optional fields. The model then writes `null` for an absent value, and
 * {@link validateObject} drops those nulls again before a second zod validation, so `.optional()` fields
 * in the zod schema accept them.
 *
 * `strict` is false when the schema cannot be strict at all: a record (`additionalProperties` that is a
 * schema, e.g. MediTOD's `slots`), which strict mode does not support; send it with `strict: false`.
 */
export function toStrictJsonSchema(schema: JsonObject): { schema: JsonObject; strict: boolean } {
  let strict = true;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] =
        key === "properties" && isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, visit(child)]))
          : key === "$defs" && isObject(value)
            ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, visit(child)]))
            : visit(value);
    }
    if (isObject(out.additionalProperties)) strict = false;
    if (isObject(out.properties)) {
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      const properties = out.properties;
      for (const name of Object.keys(properties)) {
        if (!required.has(name)) properties[name] = nullable(properties[name] as JsonObject);
      }
      out.required = Object.keys(properties);
      if (out.additionalProperties === undefined || out.additionalProperties === true) out.additionalProperties = false;
    }
    return out;
  };
  const converted = visit(schema) as JsonObject;
  return { schema: converted, strict };
}

/** Index of the bracket closing the one at `start`, or -1; strings and escapes are respected. */
function matchingBracket(text: string, start: number): number {
  const closers: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") closers.push("}");
    else if (char === "[") closers.push("]");
    else if (char === "}" || char === "]") {
      if (closers.pop() !== char) return -1;
      if (closers.length === 0) return i;
    }
  }
  return -1;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

const MAX_CANDIDATES = 64;

/**
 * Reads a JSON value out of a model reply, forgiving only what is safe: the whole reply, else the
 * first fenced code block that parses, else the first top-level balanced `{…}`/`[…]` span that parses
 * (so surrounding prose, leading text or a trailing `[done]` are ignored). It never edits the JSON itself
 * (no quote or comma fixing): anything else is an `invalid_json` error for the repair step.
 */
export function extractJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const whole = tryParse(text.trim());
  if (whole.ok) return whole;
  let firstError: string | undefined;
  let tried = 0;
  for (const match of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse((match[1] ?? "").trim());
    if (fenced.ok) return fenced;
    firstError ??= fenced.message;
    if (++tried >= MAX_CANDIDATES) break;
  }
  for (let start = 0; start < text.length && tried < MAX_CANDIDATES; start++) {
    if (text[start] !== "{" && text[start] !== "[") continue;
    const end = matchingBracket(text, start);
    if (end < 0) continue;
    tried++;
    const span = tryParse(text.slice(start, end + 1));
    if (span.ok) return span;
    firstError ??= span.message;
    start = end; // never read a fragment out of a broken value: `{"a": [],}` must not yield `[]`
  }
  if (text.trim() === "") return { ok: false, message: "the reply is empty" };
  return { ok: false, message: firstError ?? `no JSON value found (${whole.message})` };
}

/** Copy of `value` without object members whose value is `null` (the strict-schema stand-in for "absent"). */
function dropNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullMembers);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, dropNullMembers(member)]),
  );
}

function issuesOf(error: z.ZodError): FormatIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
    message: issue.message,
  }));
}

/**
 * zod validation; when it fails, validates again with `null` members dropped (see
 * {@link toStrictJsonSchema}) and reports the attempt with fewer issues.
 */
export function validateObject<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; object: z.output<S> } | { ok: false; issues: FormatIssue[] } {
  const first = schema.safeParse(value);
  if (first.success) return { ok: true, object: first.data };
  const second = schema.safeParse(dropNullMembers(value));
  if (second.success) return { ok: true, object: second.data };
  const best = second.error.issues.length < first.error.issues.length ? second.error : first.error;
  return { ok: false, issues: issuesOf(best) };
}

/** `frames[0].slots.symptom[0].status`; the root is `$`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += /^[A-Za-z_$][\w$-]*$/.test(part) ? (out ? `.${part}` : part) : `[${JSON.stringify(part)}]`;
  }
  return out || "$";
}

function describeIssues(issues: readonly FormatIssue[]): string {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join("; ");
}

/** Parses and validates a reply; a failure is a {@link FormatError}, never a throw. */
export function parseStructured<S extends z.ZodType>(
  text: string,
  schema: S,
): { ok: true; object: z.output<S> } | { ok: false; formatError: FormatError } {
  const json = extractJson(text);
  if (!json.ok) {
    const issues = [{ path: [], message: json.message }];
    return { ok: false, formatError: { kind: "invalid_json", message: `invalid JSON: ${json.message}`, issues } };
  }
  const checked = validateObject(schema, json.value);
  if (checked.ok) return checked;
  const shown = checked.issues.slice(0, 8);
  const more = checked.issues.length > shown.length ? ` (+${checked.issues.length - shown.length} more)` : "";
  return {
    ok: false,
    formatError: {
      kind: "schema_violation",
      message: `schema violation: ${describeIssues(shown)}${more}`,
      issues: checked.issues,
    },
  };
}

/**
 * For `jsonMode` and `prompt`: puts the schema into the system message (appended to the first one,
 * or as a new first message), since the server does not enforce it.
 */
export function withSchemaInstruction(messages: readonly ChatMessage[], jsonSchema: JsonObject): ChatMessage[] {
  const instruction = `Reply with only a JSON value that matches this JSON Schema, with no other text:\n${JSON.stringify(jsonSchema)}`;
  const [first, ...rest] = messages;
  if (first?.role === "system") return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: "system", content: instruction }, ...messages];
}

/** The conversation for the one repair attempt: the model's reply, then the problems with their paths. */
export function repairMessages(messages: readonly ChatMessage[], raw: string, error: FormatError): ChatMessage[] {
  const problems = error.issues.slice(0, 20).map((issue) => `- at ${formatPath(issue.path)}: ${issue.message}`);
  const what = error.kind === "invalid_json" ? "it is not valid JSON" : "it does not match the required schema";
  return [
    ...messages,
    { role: "assistant", content: raw },
    {
      role: "user",
      content: `Your previous reply could not be used: ${what}.\nProblems:\n${problems.join("\n")}\nReply again with only the corrected JSON value, with no other text.`,
    },
  ];
}
