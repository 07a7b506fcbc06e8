import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CMAS_NAMES_FILE, renderCmasNames } from "../../src/cmas/generate-cmas-names.ts";
import {
  MEDICAL_SLOT_NAMES,
  PREFIXED_SLOT_NAMES,
  READING_STATUS_NAMES,
  SOCIAL_SLOT_NAMES,
} from "../../src/cmas/cmas-names.ts";
import { nluSlots, ontology, prefixedSlotNames } from "../../src/cmas/ontology.ts";

describe("names generated from ontology/cmas.json", () => {
  it("are up to date (regenerate with `npx tsx src/cmas/generate-cmas-names.ts`)", () => {
    expect(readFileSync(CMAS_NAMES_FILE, "utf8")).toBe(renderCmasNames(ontology));
  });

  it("split the NLU slots into medical (status-prefixed) and social ones", () => {
    expect([...MEDICAL_SLOT_NAMES, ...SOCIAL_SLOT_NAMES]).toEqual(nluSlots.map((slot) => slot.name));
    expect(MEDICAL_SLOT_NAMES).toContain("medical_test");
    expect(SOCIAL_SLOT_NAMES).toEqual(["residence", "occupation", "travel", "basic_information"]);
    expect(PREFIXED_SLOT_NAMES).toEqual(prefixedSlotNames);
  });

  it("read presence as positive, negative or unknown (medical tests write it through reading_statuses)", () => {
    expect(READING_STATUS_NAMES).toEqual(["positive", "negative", "unknown"]);
  });
});
