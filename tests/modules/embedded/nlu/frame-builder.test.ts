import { describe, expect, it } from "vitest";
import { EntryCollector, prefixedSlot } from "../../../../src/modules/embedded/nlu/frame-builder.ts";

describe("frame builder: statuses written as the ontology writes them", () => {
  it("prefixes medical slots with the status read, and leaves social slots unprefixed", () => {
    expect(prefixedSlot("symptom", "unknown")).toBe("unknown_symptom");
    expect(prefixedSlot("occupation", "positive")).toBe("occupation");
  });

  it("writes a test's presence through reading_statuses, and drops an uncertain test instead of calling it unavailable", () => {
    expect(prefixedSlot("medical_test", "positive")).toBe("avail_medical_test");
    expect(prefixedSlot("medical_test", "negative")).toBe("unavail_medical_test");
    expect(prefixedSlot("medical_test", "unknown")).toBeUndefined();
    const entries = new EntryCollector();
    entries.add("medical_test", "unknown", "chest x-ray");
    entries.add("symptom", "positive", "coughing");
    expect(entries.toFrames()).toEqual([{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }]);
  });
});
