import { describe, expect, it } from "vitest";
import { chatServerForTest } from "./chat-server.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

/** Deterministic modules: the page is under test here, not the engine. */
const modules = scriptedModules({
  frames: (utterance) =>
    /cough/i.test(utterance)
      ? [
          {
            intent: "inform",
            slots: {
              positive_symptom: [{ value: "coughing", onset: "a week ago" }],
              negative_symptom: [{ value: "fever" }],
            },
          },
        ]
      : [{ intent: "inform" }],
  actions: [{ action: "inquire", symptom: [{ value: "hemoptysis" }] }],
  reply: "Have you coughed up any blood?",
});

const chat = chatPageHarness({ modules });

describe("the chat page in headless Chromium", () => {
  it("sends the patient's answer, shows the doctor's reply and fills the profile", async () => {
    // The page runs under the server's strict CSP: any inline script or style it needed would be refused and logged.
    const { page, loaded, requests, cspViolations } = await chat.openChat({ viewport: { width: 1200, height: 800 } });
    expect(loaded?.headers()["content-security-policy"]).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(await page.locator("#transcript li.doctor").first().innerText()).toContain("What brings you in today?");

    await page.fill("#message", "I've had a cough for a week, no fever.");
    await page.click("#send");
    await page.locator("#transcript li").nth(2).waitFor();
    const items = await page.locator("#transcript li").allInnerTexts();
    expect(items[1]).toContain("I've had a cough for a week");
    expect(items[2]).toContain("Have you coughed up any blood?");

    const profile = await page.locator("#profile").innerText();
    // The state's "coughing" is the data's form of the word: the profile names it "cough".
    expect(profile).toMatch(/cough\n/);
    expect(profile).not.toMatch(/coughing/);
    expect(profile).toMatch(/onset: a week ago/);
    expect(profile).toMatch(/fever/);
    expect(await page.locator(".entry.negative").count()).toBe(1);

    // Everything the page loads comes from our server, and nothing it does breaks the CSP.
    expect(requests.every((url) => url.startsWith(chat.url))).toBe(true);
    expect(cspViolations).toEqual([]);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/chat.png` });
  });

  it("runs a simulated patient to the end, then offers nothing more to press", async () => {
    const simulated = await chatServerForTest({
      modules,
      maxDoctorTurns: 3,
      cases: [
        {
          id: "demo",
          title: "Demo case: coughing",
          profile: {
            positive_symptom: [{ value: "coughing", onset: "a week ago" }],
            negative_symptom: [{ value: "hemoptysis" }],
          },
        },
      ],
    });
    const { page } = await chat.openChat({ viewport: { width: 1200, height: 800 } }, simulated.url);
    await page.selectOption("#case", { index: 1 });
    await page.click("#new");
    await page.locator("#auto").waitFor({ state: "visible" });
    await page.click("#auto");
    await page.locator("#status", { hasText: "complete" }).waitFor();
    expect(await page.locator("#transcript li.doctor").count()).toBe(4);
    expect(await page.locator("#transcript li.patient").first().innerText()).toMatch(/cough/i);
    for (const button of ["#auto", "#simulate", "#send"]) expect(await page.locator(button).isDisabled()).toBe(true);
  });

  it("shows the server's validation error instead of failing silently", async () => {
    const { page } = await chat.openChat();
    // Bypass the input's own length limit to reach the server's validation.
    await page.locator("#message").evaluate((input) => input.setAttribute("maxlength", "5000"));
    await page.fill("#message", "x".repeat(2500));
    await page.click("#send");
    await page.locator("#status.error").waitFor();
    expect(await page.locator("#status").innerText()).toMatch(/text/);
  });
});
