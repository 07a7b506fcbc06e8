import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  extractJson,
  formatPath,
  parseStructured,
  repairMessages,
  toStrictJsonSchema,
  validateObject,
  withSchemaInstruction,
  zodToJsonSchema,
} from "../../src/backends/structured.ts";
import { GOOD_ACTIONS, GOOD_FRAMES, doctorActionsSchema, nluFramesSchema } from "./helpers.ts";

describe("extractJson: forgiving only where safe", () => {
  const value = { frames: [{ intent: "inform" }] };
  const text = JSON.stringify(value);

  it.each([
    ["plain", text],
    ["surrounding whitespace", `\n  ${text}\n`],
    ["a fenced block", `\`\`\`json\n${text}\n\`\`\``],
    ["a fenced block in prose", `Here you go:\n\`\`\`\n${text}\n\`\`\`\nHope this helps.`],
    ["leading text", `The answer is ${text}`],
    ["trailing text", `${text} [done]`],
    ["a bracketed aside before the JSON", `Output [as requested]: ${text}`],
    ["braces inside strings", `x ${JSON.stringify({ frames: [{ intent: "inform", note: "a } b [" }] })}`],
  ])("reads JSON from %s", (_name, input) => {
    const result = extractJson(input);
    expect(result.ok).toBe(true);
    if (result.ok) expect((result.value as { frames: unknown[] }).frames[0]).toMatchObject({ intent: "inform" });
  });

  it("does not fix broken JSON", () => {
    expect(extractJson("{'frames': []}").ok).toBe(false);
    expect(extractJson('{"frames": [],}').ok).toBe(false);
    expect(extractJson('{"frames": [').ok).toBe(false);
    expect(extractJson("")).toEqual({ ok: false, message: "the reply is empty" });
  });
});

describe("toStrictJsonSchema", () => {
  it("requires every property and makes optional ones nullable", () => {
    const { schema, strict } = toStrictJsonSchema(zodToJsonSchema(doctorActionsSchema));
    expect(strict).toBe(true);
    const action = (schema as any).properties.actions.items;
    expect(action.required).toEqual(["action", "symptom"]);
    expect(action.additionalProperties).toBe(false);
    expect(action.properties.symptom.type).toEqual(["array", "null"]);
    const check = action.properties.symptom.items.properties.checks.items;
    expect(check.required).toEqual(["type", "values"]);
    expect(check.properties.values.type).toEqual(["array", "null"]);
  });

  it("adds null to enums and wraps other optional schemas in anyOf", () => {
    const { schema } = toStrictJsonSchema(
      zodToJsonSchema(
        z.object({
          status: z.enum(["positive", "negative"]).optional(),
          either: z.union([z.string(), z.number()]).optional(),
        }),
      ),
    );
    const properties = (schema as any).properties;
    expect(properties.status).toEqual({ type: ["string", "null"], enum: ["positive", "negative", null] });
    expect(properties.either.anyOf).toContainEqual({ type: "null" });
  });

  it("reports records as not strict-compatible", () => {
    expect(toStrictJsonSchema(zodToJsonSchema(nluFramesSchema)).strict).toBe(false);
  });
});

describe("validateObject and parseStructured", () => {
  it("accepts nulls written for optional fields under a strict schema", () => {
    const result = validateObject(doctorActionsSchema, { actions: [{ action: "inquire", symptom: null }] });
    expect(result).toEqual({ ok: true, object: { actions: [{ action: "inquire" }] } });
  });

  it("keeps genuine nulls when the schema allows them", () => {
    const schema = z.object({ onset: z.string().nullable() });
    expect(validateObject(schema, { onset: null })).toEqual({ ok: true, object: { onset: null } });
  });

  it("reports zod issues with their paths", () => {
    const result = parseStructured(
      JSON.stringify({ frames: [{ intent: "greet", slots: { symptom: [{ value: 1 }] } }] }),
      nluFramesSchema,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.formatError.kind).toBe("schema_violation");
    expect(result.formatError.issues.map((issue) => formatPath(issue.path))).toEqual([
      "frames[0].intent",
      "frames[0].slots.symptom[0].value",
    ]);
  });

  it("parses the MediTOD-shaped examples", () => {
    expect(parseStructured(JSON.stringify(GOOD_FRAMES), nluFramesSchema)).toEqual({ ok: true, object: GOOD_FRAMES });
    expect(parseStructured(JSON.stringify(GOOD_ACTIONS), doctorActionsSchema)).toEqual({
      ok: true,
      object: GOOD_ACTIONS,
    });
  });

  it("formats paths, quoting odd keys", () => {
    expect(formatPath([])).toBe("$");
    expect(formatPath(["slots", "positive symptom", 0])).toBe('slots["positive symptom"][0]');
  });
});

describe("prompts for structured output", () => {
  it("appends the schema to the first system message, or adds one", () => {
    const schema = { type: "object" };
    expect(
      withSchemaInstruction(
        [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        schema,
      )[0]!.content,
    ).toMatch(/^Be brief\.\n\nReply with only a JSON value that matches this JSON Schema/);
    const added = withSchemaInstruction([{ role: "user", content: "hi" }], schema);
    expect(added.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("builds the repair conversation from the reply and the issues", () => {
    const messages = repairMessages([{ role: "user", content: "hi" }], "{bad", {
      kind: "invalid_json",
      message: "invalid JSON",
      issues: [{ path: [], message: "Unexpected token" }],
    });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]!.content).toBe("{bad");
    expect(messages[2]!.content).toContain("- at $: Unexpected token");
  });
});
