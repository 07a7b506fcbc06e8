import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UsageRecorder, gitRevision } from "../../src/backends/run-record.ts";
import { tempDirForTest } from "./helpers.ts";

describe("run records", () => {
  it("gitRevision is the HEAD commit inside a checkout and null outside", async () => {
    expect(await gitRevision(fileURLToPath(new URL("../..", import.meta.url)))).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitRevision(tempDirForTest())).toBeNull();
  });

  it("UsageRecorder sums requests and computes the format-error rate", () => {
    const seen: string[] = [];
    const recorder = new UsageRecorder({ onRecord: (record) => seen.push(record.operation) });
    const base = { backendId: "openai:m", inputTokens: 10, outputTokens: 5, latencyMs: 100, attempts: 1 };
    recorder.record({ ...base, operation: "object", cached: false });
    recorder.record({ ...base, operation: "repair", cached: true, attempts: 0 });
    recorder.recordObject({ repaired: true, formatError: true });
    recorder.recordObject({ repaired: false, formatError: false });
    expect(recorder.summary()).toEqual({
      requests: 2,
      cachedRequests: 1,
      inputTokens: 20,
      outputTokens: 10,
      latencyMs: 200,
      objects: 2,
      repaired: 1,
      formatErrors: 1,
      formatErrorRate: 0.5,
    });
    expect(seen).toEqual(["object", "repair"]);
    recorder.reset();
    expect(recorder.summary().requests).toBe(0);
  });
});
