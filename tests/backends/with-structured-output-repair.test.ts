import { describe, expect, it } from "vitest";
import { z } from "zod";
import { withStructuredOutputRepair } from "../../src/backends/with-structured-output-repair.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { scriptedDriver } from "./scripted-driver.ts";

/** The structured-output repair layer alone around a scripted driver. */

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;
const schema = z.object({ intent: z.enum(["inform", "chit-chat"]), positive: z.boolean() });
const VALID = JSON.stringify({ intent: "inform", positive: true });

describe("withStructuredOutputRepair", () => {
  it("sends nothing more when the first reply is valid", async () => {
    const driver = scriptedDriver([{ text: VALID }]);
    const result = await wrapChatBackend({ driver, middleware: [withStructuredOutputRepair()] }).generateObject(
      USER,
      schema,
    );
    expect(result).toMatchObject({ object: { intent: "inform", positive: true }, raw: VALID, repaired: false });
    expect(driver.requests).toHaveLength(1);
  });

  it("repairs an invalid reply with one request that shows the model its reply and the problems", async () => {
    const driver = scriptedDriver([{ text: "Sure! The patient has a cough." }, { text: VALID }]);
    const result = await wrapChatBackend({ driver, middleware: [withStructuredOutputRepair()] }).generateObject(
      USER,
      schema,
    );
    expect(result).toMatchObject({
      object: { intent: "inform", positive: true },
      raw: VALID,
      repaired: true,
      cached: false,
    });
    expect(result.formatError).toBeUndefined();
    const [first, repair] = driver.requests;
    expect(repair!.messages.slice(0, -2)).toEqual(first!.messages);
    expect(repair!.messages.at(-2)).toEqual({ role: "assistant", content: "Sure! The patient has a cough." });
    expect(repair!.messages.at(-1)!.content).toMatch(
      /^Your previous reply could not be used: it is not valid JSON\.\nProblems:\n- at \$: /,
    );
    expect(repair!.structured).toEqual(first!.structured);
    // Usage and latency cover both requests.
    expect(result.usage).toEqual({
      inputTokens: first!.messages.length + repair!.messages.length,
      outputTokens: "Sure! The patient has a cough.".length + VALID.length,
    });
  });

  it("falls back to the format error, with its reason and the raw text, when the repair fails too", async () => {
    const wrong = JSON.stringify({ intent: "diagnosis", positive: "yes" });
    const driver = scriptedDriver([{ text: "{ not json" }, { text: wrong }]);
    const result = await wrapChatBackend({ driver, middleware: [withStructuredOutputRepair()] }).generateObject(
      USER,
      schema,
    );
    expect(result.object).toBeNull();
    expect(result).toMatchObject({ raw: wrong, repaired: true, formatError: { kind: "schema_violation" } });
    expect(result.formatError!.issues.map((issue) => issue.path)).toEqual([["intent"], ["positive"]]);
    expect(driver.requests).toHaveLength(2);
  });

  it("is what repairs: without it an invalid reply is a format error at once", async () => {
    const driver = scriptedDriver([{ text: "{ not json" }]);
    const result = await wrapChatBackend({ driver }).generateObject(USER, schema);
    expect(result).toMatchObject({ object: null, repaired: false, formatError: { kind: "invalid_json" } });
    expect(driver.requests).toHaveLength(1);
  });
});
