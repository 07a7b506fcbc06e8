import { describe, expect, it } from "vitest";
import type { DoctorAction } from "../../src/cmas/schemas.ts";
import type { QuestionReader } from "../../src/language/question-reader.ts";
import type { PatientCase } from "../../src/simulator/patient-simulator.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

/** Deterministic parts: the page is under test here, not the engine. */
const modules = scriptedModules({
  frames: () => [{ intent: "inform" }],
  actions: [{ action: "inquire" }],
  reply: "Anything else?",
});
const questionReader: QuestionReader = {
  read: (text): DoctorAction[] =>
    /cough/i.test(text)
      ? [{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] }]
      : [{ action: "inquire" }],
};
const patientCase: PatientCase = {
  id: "case-1",
  title: "A cough",
  profile: {
    positive_symptom: [{ value: "coughing", onset: "two weeks ago", severity: "6" }],
    negative_symptom: [{ value: "hemoptysis" }],
  },
};

const chat = chatPageHarness({ modules, cases: [patientCase], questionReader });

describe("practice mode in headless Chromium", () => {
  it("lets the user ask as the doctor and shows the coverage checklist", async () => {
    const { page, requests } = await chat.openChat({ viewport: { width: 1200, height: 800 } });

    await page.selectOption("#role", "doctor");
    await page.locator("#coverage-panel:not([hidden])").waitFor();
    expect(await page.locator("#case").inputValue()).toBe("case-1");
    expect(await page.locator("#transcript li").count()).toBe(0);
    expect(await page.locator("#profile-panel").isHidden()).toBe(true);
    expect(await page.locator("#coverage-summary").innerText()).toContain("0 of 4 asked");
    // Facts not yet asked are not given away.
    expect(await page.locator("#coverage").innerText()).not.toMatch(/hemoptysis/);

    await page.fill("#message", "When did the cough start?");
    await page.click("#send");
    await page.locator("#transcript li").nth(1).waitFor();
    const items = await page.locator("#transcript li").allInnerTexts();
    expect(items[0]).toMatch(/you \(doctor\)/i);
    expect(items[0]).toContain("When did the cough start?");
    expect(items[1]).toMatch(/patient/i);
    expect(items[1]).toContain("It started two weeks ago.");

    const coverage = await page.locator("#coverage").innerText();
    expect(coverage).toMatch(/coughing/);
    expect(coverage).toMatch(/symptom — 1 of 2 asked/i);
    expect(await page.locator(".entry.fact.asked").count()).toBe(1);
    expect(await page.locator(".attr.asked").count()).toBe(1);
    expect(await page.locator("#coverage-summary").innerText()).toContain("2 of 4 asked");

    await page.check("#reveal");
    expect(await page.locator("#coverage").innerText()).toMatch(/hemoptysis \(negative\)/);

    // Back to the usual mode: the system is the doctor again.
    await page.selectOption("#role", "patient");
    await page.locator("#profile-panel:not([hidden])").waitFor();
    await page.locator("#transcript li.doctor").first().waitFor();
    expect(await page.locator("#transcript li.doctor").first().innerText()).toContain("What brings you in today?");

    expect(requests.every((url) => url.startsWith(chat.url))).toBe(true);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/practice.png` });
  });
});
