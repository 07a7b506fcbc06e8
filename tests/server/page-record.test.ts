import { describe, expect, it } from "vitest";
import type { NluFrame } from "../../src/cmas/schemas.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { chatPageHarness } from "./page-harness.ts";

/**
 * The chat page's profile in the patient's terms (issue 20, items 2, 3 and 8), in headless Chromium:
 * the medicines named, each with its dose and frequency, and no data label the patient did not say
 * ("alcohol abuse" for a few glasses of wine, "bedridden" for tiredness).
 */

const frames: NluFrame[] = [
  {
    intent: "inform",
    slots: {
      positive_symptom: [{ value: "bedridden", onset: "2 weeks ago" }],
      positive_habit: [{ value: "alcohol abuse", frequency: "a few glasses of wine a week" }],
    },
  },
];

/** Modules that read every turn as tiredness, a little wine and ramipril 5mg in the morning. */
const modules: DialogueModules = {
  nlu: {
    id: "scripted",
    understand: async () => ({
      frames: structuredClone(frames),
      medicines: [{ name: "ramipril", dose: "5mg", frequency: "in the morning" }],
      latencyMs: 0,
    }),
  },
  policy: {
    id: "scripted",
    nextActions: async () => ({ actions: [{ action: "inquire", symptom: [{ value: "fever" }] }], latencyMs: 0 }),
  },
  nlg: { id: "scripted", realise: async () => ({ text: "Have you had any fevers?", latencyMs: 0 }) },
};

const chat = chatPageHarness({ cases: [], modules });

async function profileAfter(said: string): Promise<string> {
  const { page } = await chat.openChat({ viewport: { width: 1200, height: 900 } });
  await page.fill("#message", said);
  await page.click("#send");
  await page.locator("#profile .slot").first().waitFor();
  return page.locator("#profile").innerText();
}

describe("the chat page's profile", () => {
  it("lists the medicines named with their doses, and says tiredness and alcohol use in lay words", async () => {
    const profile = await profileAfter(
      "Tired for two weeks, still up and about; ramipril 5mg in the morning; some wine.",
    );
    expect(profile).toMatch(/medicines named\s*ramipril\s*dose: 5mg; how often: in the morning/i);
    expect(profile).toMatch(/tiredness/);
    expect(profile).toMatch(/alcohol use/);
    expect(profile).not.toMatch(/bedridden|alcohol abuse/);
  });

  it("negative control: a patient who says they are bedridden sees it", async () => {
    const profile = await profileAfter("I've been bedridden for two weeks.");
    expect(profile).toMatch(/bedridden/);
    expect(profile).not.toMatch(/alcohol abuse/);
  });
});
