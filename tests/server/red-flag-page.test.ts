import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { NluFrame } from "../../src/cmas/schemas.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

const chestPain: NluFrame[] = [
  {
    intent: "inform",
    slots: { positive_symptom: [{ value: "chest pain", onset: "an hour ago" }, { value: "dyspnea" }] },
  },
];
const noFever: NluFrame[] = [{ intent: "inform", slots: { negative_symptom: [{ value: "fever" }] } }];

/** Deterministic modules: the page is under test here. The red flag itself comes from the real rules. */
const modules = scriptedModules({
  frames: (utterance) => (/chest/i.test(utterance) ? chestPain : noFever),
  actions: [{ action: "inquire", symptom: [{ value: "fever" }] }],
  reply: "Have you had any fevers?",
});

const chat = chatPageHarness({ modules });

describe("a red-flag conversation in headless Chromium", () => {
  it("shows the urgent-care banner, downloads the note, and lets the patient end the history", async () => {
    const { page } = await chat.openChat({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    expect(await page.locator("#red-flags").isVisible()).toBe(false);
    expect(await page.locator("#note").isVisible()).toBe(false);
    // What screens for red flags, from /api/health: this server was given no semantic signal.
    await page.locator("#red-flag-signal", { hasText: "semantic signal off" }).waitFor();
    expect(await page.locator("#red-flag-signal").innerText()).toMatch(
      /^Red flags: lay-word rules on; learned model and semantic signal off \(not enabled/,
    );

    await page.fill("#message", "I've had crushing chest pain for an hour and I can't catch my breath.");
    await page.click("#send");
    await page.locator("#red-flags").waitFor({ state: "visible" });
    const banner = await page.locator("#red-flags").innerText();
    expect(banner).toMatch(/Emergency: Chest pain that may be the heart/);
    expect(banner).toMatch(/call an ambulance/);
    // The advice is said in the conversation too, before the next question.
    const doctor = await page.locator("#transcript li.doctor").allInnerTexts();
    expect(doctor.at(-2)).toMatch(/Before we go on/);
    expect(doctor.at(-1)).toMatch(/Have you had any fevers\?/);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#note")]);
    expect(download.suggestedFilename()).toMatch(/^anamnesis-note-.+\.md$/);
    const note = readFileSync(await download.path(), "utf8");
    expect(note).toContain("## Presenting complaint\n\nchest pain, dyspnea");
    expect(note).toContain("- chest pain — onset: an hour ago");
    expect(note).toContain(
      "**Chest pain that may be the heart: crushing or spreading, with sweating, sickness or breathlessness** (emergency)",
    );

    await page.click("#end");
    await page.locator("#status", { hasText: "complete" }).waitFor();
    expect(await page.locator("#send").isDisabled()).toBe(true);
    expect(await page.locator("#red-flags").isVisible()).toBe(true);
    expect(await page.locator("#red-flags .choice").isVisible()).toBe(false);
  });
});
