import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { policyExamples } from "../../../src/data/meditod-views.ts";
import { InContextPrompter } from "../../../src/modules/llm/in-context-prompter.ts";

/**
 * The anamnesis protocol's policy prompts: the compact state (policy.v2) and the default budget keep
 * five exemplars on every turn of the test dialogue, whose late states are long; a budget too small
 * for any exemplar is reported as such, not as history that the policy prompt never shows.
 */

const dataset = loadMeditod();
const examples = policyExamples(dataset, "test");
const turnsOf = (example: (typeof examples)[number]) => example.history.map(({ speaker, text }) => ({ speaker, text }));

describe("policy prompts of the anamnesis protocol", () => {
  it("keep five exemplars on every doctor turn of the test dialogue", async () => {
    const prompter = new InContextPrompter("policy", dataset, "train");
    expect(prompter.template.version).toBe("policy.v2");
    for (const example of examples) {
      const prompt = await prompter.build(
        turnsOf(example),
        { task: "policy", state: example.state },
        example.dialogueId,
      );
      expect(prompt.exemplars, `turn ${example.turn}`).toHaveLength(5);
      expect(prompt.overBudget).toBe(false);
      // The state is shown on one line.
      expect(prompt.messages.at(-1)!.content).toContain(`\`\`\`\n${JSON.stringify(example.state)}\n\`\`\``);
    }
  });

  it("report a prompt over budget without claiming dropped history", async () => {
    const prompter = new InContextPrompter("policy", dataset, "train", { tokenBudget: 2048 });
    const last = examples.at(-1)!;
    expect(last.turn).toBe(148);
    const prompt = await prompter.build(turnsOf(last), { task: "policy", state: last.state }, last.dialogueId);
    expect(prompt.exemplars).toEqual([]);
    expect(prompt.overBudget).toBe(true);
    expect(prompt.droppedHistoryTurns).toBe(0);
  });
});
