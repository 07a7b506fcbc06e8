import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startChatServer } from "../../server/app.ts";
import type { DialogueModules } from "../../src/modules/types.ts";
import { launchChromium } from "./browser.ts";

/** Deterministic modules: the page is under test here, not the engine. */
const modules: DialogueModules = {
  nlu: {
    id: "scripted",
    understand: async ({ utterance }) => ({
      frames: /cough/i.test(utterance)
        ? [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing", onset: "a week ago" }], negative_symptom: [{ value: "fever" }] } }]
        : [{ intent: "inform" }],
      latencyMs: 0,
    }),
  },
  policy: { id: "scripted", nextActions: async () => ({ actions: [{ action: "inquire", symptom: [{ value: "hemoptysis" }] }], latencyMs: 0 }) },
  nlg: { id: "scripted", realise: async () => ({ text: "Have you coughed up any blood?", latencyMs: 0 }) },
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

describe("the chat page in headless Chromium", () => {
  it("sends the patient's answer, shows the doctor's reply and fills the profile", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    // The page runs under the server's strict CSP: any inline script or style it needed would be refused and logged.
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    const loaded = await page.goto(server.url);
    expect(loaded?.headers()["content-security-policy"]).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    await page.locator("#transcript li.doctor").first().waitFor();
    expect(await page.locator("#transcript li.doctor").first().innerText()).toContain("What brings you in today?");

    await page.fill("#message", "I've had a cough for a week, no fever.");
    await page.click("#send");
    await page.locator("#transcript li").nth(2).waitFor();
    const items = await page.locator("#transcript li").allInnerTexts();
    expect(items[1]).toContain("I've had a cough for a week");
    expect(items[2]).toContain("Have you coughed up any blood?");

    const profile = await page.locator("#profile").innerText();
    expect(profile).toMatch(/coughing/);
    expect(profile).toMatch(/onset: a week ago/);
    expect(profile).toMatch(/fever/);
    expect(await page.locator(".entry.negative").count()).toBe(1);

    // Everything the page loads comes from our server, and nothing it does breaks the CSP.
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    expect(refused).toEqual([]);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/chat.png` });
    await page.close();
  });

  it("runs a simulated patient to the end, then offers nothing more to press", async () => {
    const simulated = await startChatServer({
      modules,
      maxDoctorTurns: 3,
      cases: [{ id: "demo", title: "Demo case: coughing", profile: { positive_symptom: [{ value: "coughing", onset: "a week ago" }], negative_symptom: [{ value: "hemoptysis" }] } }],
    });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    try {
      await page.goto(simulated.url);
      await page.locator("#transcript li.doctor").first().waitFor();
      await page.selectOption("#case", { index: 1 });
      await page.click("#new");
      await page.locator("#auto").waitFor({ state: "visible" });
      await page.click("#auto");
      await page.locator("#status", { hasText: "complete" }).waitFor();
      expect(await page.locator("#transcript li.doctor").count()).toBe(4);
      expect(await page.locator("#transcript li.patient").first().innerText()).toMatch(/cough/i);
      for (const button of ["#auto", "#simulate", "#send"]) expect(await page.locator(button).isDisabled()).toBe(true);
    } finally {
      await page.close();
      await simulated.close();
    }
  });

  it("shows the server's validation error instead of failing silently", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.locator("#transcript li.doctor").first().waitFor();
    // Bypass the input's own length limit to reach the server's validation.
    await page.locator("#message").evaluate((input) => input.setAttribute("maxlength", "5000"));
    await page.fill("#message", "x".repeat(2500));
    await page.click("#send");
    await page.locator("#status.error").waitFor();
    expect(await page.locator("#status").innerText()).toMatch(/text/);
    await page.close();
  });
});
