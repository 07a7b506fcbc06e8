import { describe, expect, it } from "vitest";
import type { NluFrame } from "../../src/cmas/schemas.ts";
import { loadCaseLibrary } from "../../src/simulator/case-library.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

/**
 * The chat page as a new user sees it (issue #20, item 8), in headless Chromium: the profile speaks
 * plain words (no "respone to", no "NOT_TRAVELED"), the case list fits its panel, the urgent-care
 * banner does not hide the transcript, and the page has a favicon. `SCREENSHOT=path` saves a picture.
 */

const frames: NluFrame[] = [
  {
    intent: "inform",
    slots: {
      positive_symptom: [
        { value: "chest pain", onset: "an hour ago", aggravating_factor: ["deep breathing"] },
        { value: "dyspnea" },
      ],
      positive_medication: [{ value: "ibuprofen", respone_to: "back pain", frequency: "twice a day" }],
      travel: [{ status: "NOT_TRAVELED" }],
      negative_habit: [{ value: "smoking" }],
    },
  },
];

const chat = chatPageHarness({
  cases: loadCaseLibrary(),
  modules: scriptedModules({
    frames: () => frames,
    actions: [{ action: "inquire", symptom: [{ value: "fever" }] }],
    reply: "Have you had any fevers?",
  }),
});

describe("the chat page in headless Chromium", () => {
  it("shows a plain profile, a case list inside its panel, the transcript beside the banner, and a favicon", async () => {
    const { page } = await chat.openChat({ viewport: { width: 1200, height: 900 } });
    await page.fill("#message", "I've had crushing chest pain for an hour and I can't catch my breath.");
    await page.click("#send");
    await page.locator("#red-flags").waitFor({ state: "visible" });
    await page.locator("#profile .slot").first().waitFor();
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });

    const profile = await page.locator("#profile").innerText();
    expect(profile).not.toMatch(/respone|NOT_TRAVELED|not_traveled|_/i);
    expect(profile).toMatch(/taken for: back pain/);
    expect(profile).toMatch(/has not travelled/i);
    expect(profile).toMatch(/YES\s*chest pain/i);
    expect(profile).toMatch(/worse with: deep breathing/);

    const select = (await page.locator("#case").boundingBox())!;
    const panel = (await page.locator("section.chat").boundingBox())!;
    expect(select.x + select.width).toBeLessThanOrEqual(panel.x + panel.width);

    const banner = (await page.locator("#red-flags").boundingBox())!;
    const transcript = (await page.locator("#transcript").boundingBox())!;
    expect(transcript.height).toBeGreaterThan(150);
    expect(banner.y + banner.height <= transcript.y || transcript.y + transcript.height <= banner.y).toBe(true);
    const lastTurn = page.locator("#transcript li").last();
    expect(await lastTurn.isVisible()).toBe(true);

    const favicon = await page.locator('link[rel="icon"]').getAttribute("href", { timeout: 1000 });
    expect(favicon).toBeTruthy();
    expect((await page.request.get(new URL(favicon!, page.url()).href)).status()).toBe(200);
  });

  it("keeps a narrow window usable: the case list still fits", async () => {
    const { page } = await chat.openChat({ viewport: { width: 420, height: 800 } });
    const select = (await page.locator("#case").boundingBox())!;
    const panel = (await page.locator("section.chat").boundingBox())!;
    expect(select.x + select.width).toBeLessThanOrEqual(panel.x + panel.width);
  });
});
