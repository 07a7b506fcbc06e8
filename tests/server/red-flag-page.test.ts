import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startChatServer } from "../../server/app.ts";
import type { NluFrame } from "../../src/cmas/schemas.ts";
import type { DialogueModules } from "../../src/modules/types.ts";
import { launchChromium } from "./browser.ts";

const chestPain: NluFrame[] = [{ intent: "inform", slots: { positive_symptom: [{ value: "chest pain", onset: "an hour ago" }, { value: "dyspnea" }] } }];
const noFever: NluFrame[] = [{ intent: "inform", slots: { negative_symptom: [{ value: "fever" }] } }];

/** Deterministic modules: the page is under test here. The red flag itself comes from the real rules. */
const modules: DialogueModules = {
  nlu: {
    id: "scripted",
    understand: async ({ utterance }) => ({
      frames: /chest/i.test(utterance) ? chestPain : noFever,
      latencyMs: 0,
    }),
  },
  policy: { id: "scripted", nextActions: async () => ({ actions: [{ action: "inquire", symptom: [{ value: "fever" }] }], latencyMs: 0 }) },
  nlg: { id: "scripted", realise: async () => ({ text: "Have you had any fevers?", latencyMs: 0 }) },
};

let browser: Browser;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  server = await startChatServer({ modules });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("a red-flag conversation in headless Chromium", () => {
  it("shows the urgent-care banner, downloads the note, and lets the patient end the history", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    try {
      await page.goto(server.url);
      await page.locator("#transcript li.doctor").first().waitFor();
      expect(await page.locator("#red-flags").isVisible()).toBe(false);
      expect(await page.locator("#note").isVisible()).toBe(false);

      await page.fill("#message", "I've had crushing chest pain for an hour and I can't catch my breath.");
      await page.click("#send");
      await page.locator("#red-flags").waitFor({ state: "visible" });
      const banner = await page.locator("#red-flags").innerText();
      expect(banner).toMatch(/Emergency: Chest pain with breathlessness or sweating/);
      expect(banner).toMatch(/call an ambulance/);
      // The advice is said in the conversation too, before the next question.
      const doctor = await page.locator("#transcript li.doctor").allInnerTexts();
      expect(doctor.at(-2)).toMatch(/Before we go on/);
      expect(doctor.at(-1)).toMatch(/Have you had any fevers\?/);

      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#note")]);
      expect(download.suggestedFilename()).toMatch(/^anamnesis-note-.+\.md$/);
      const note = readFileSync((await download.path()), "utf8");
      expect(note).toContain("## Presenting complaint\n\nchest pain, dyspnea");
      expect(note).toContain("- chest pain — onset: an hour ago");
      expect(note).toContain("**Chest pain with breathlessness or sweating** (emergency)");

      await page.click("#end");
      await page.locator("#status", { hasText: "complete" }).waitFor();
      expect(await page.locator("#send").isDisabled()).toBe(true);
      expect(await page.locator("#red-flags").isVisible()).toBe(true);
      expect(await page.locator("#red-flags .choice").isVisible()).toBe(false);
    } finally {
      await page.close();
    }
  });
});
