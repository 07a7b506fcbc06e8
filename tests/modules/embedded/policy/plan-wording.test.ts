import { describe, expect, it } from "vitest";
import { realiseFromTemplates } from "../../../../src/modules/embedded/nlg.ts";
import { askOf, inquire } from "../../../../src/modules/embedded/policy/actions.ts";
import { ConversationReader } from "../../../../src/modules/embedded/policy/conversation-reader.ts";
import { loadHistoryPlan } from "../../../../src/language/history-plan.ts";

/**
 * The planner knows what it has asked only by reading the doctor's words back. In the chat those
 * words are the clean NLG's, so every plan item, worded by it, must read back as that item — or the
 * chat asks the same question forever.
 */
describe("plan items worded by the clean NLG", () => {
  const plan = loadHistoryPlan();
  const reader = new ConversationReader(plan);

  it.each(plan.items.map((item) => [item.id, item] as const))("%s reads back as itself", (_id, item) => {
    const text = realiseFromTemplates(
      inquire(item.values.map((value) => askOf(item.slot, value, item.check?.type, item.check?.values))),
    );
    expect(reader.readDoctor(text).items, text).toContain(item.id);
  });
});
