import { describe, expect, it } from "vitest";
import {
  inferComplaintSystem,
  scoreOsceChecklist,
  type ChecklistCase,
  type ChecklistTurn,
} from "../../src/clinical/osce-checklist.ts";
import { loadOsceChecklist } from "../../src/clinical/osce-checklist-rules.ts";

const checklist = loadOsceChecklist();
const anyCase: ChecklistCase = { complaint: "chest pain", pain: true, age: 40, sex: "female" };

/** The ids of the items one doctor question covers. */
function coveredBy(question: string): string[] {
  const result = scoreOsceChecklist([{ speaker: "doctor", text: question }], anyCase);
  return result.items.filter((item) => item.covered).map((item) => item.id);
}

describe("every checklist item's examples (ontology/osce-checklist.json)", () => {
  const cases = checklist.items.flatMap((item) => [
    ...item.examples.covers.map((question) => ({ id: item.id, question, covers: true })),
    ...item.examples.misses.map((question) => ({ id: item.id, question, covers: false })),
  ]);

  it("has at least one example and one near miss for every item", () => {
    for (const item of checklist.items) {
      expect(item.examples.covers.length, item.id).toBeGreaterThan(0);
      expect(item.examples.misses.length, item.id).toBeGreaterThan(0);
    }
  });

  it.each(cases)("$id: $covers ← $question", ({ id, question, covers }) => {
    expect(coveredBy(question).includes(id)).toBe(covers);
  });
});

describe("scoreOsceChecklist", () => {
  it("reports every item in the file's order, with the first doctor turn that covered it", () => {
    const turns: ChecklistTurn[] = [
      { speaker: "doctor", text: "Hello, I'm one of the doctors. What brings you in today?" },
      { speaker: "patient", text: "I've got a pain in my chest." },
      { speaker: "doctor", text: "I'm sorry to hear that. When did it start?" },
    ];
    const result = scoreOsceChecklist(turns, anyCase);
    expect(result.items.map((item) => item.id)).toEqual(checklist.items.map((item) => item.id));
    const byId = new Map(result.items.map((item) => [item.id, item]));
    expect(byId.get("presenting_complaint")).toMatchObject({ covered: true, firstTurn: 0, applicable: true });
    expect(byId.get("onset")).toMatchObject({ covered: true, firstTurn: 2 });
    expect(byId.get("family_history")).toMatchObject({ covered: false, firstTurn: null, applicable: true });
    const applicable = result.items.filter((item) => item.applicable);
    expect(result.coverage).toBeCloseTo(2 / applicable.length, 12);
  });

  it("infers the complaint's system from its words", () => {
    expect(inferComplaintSystem("cough")).toBe("respiratory");
  });
});
