import { describe, expect, it } from "vitest";
import { answerFailuresWith } from "../../src/modules/builders/backend-failure-fallback.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

/**
 * The page when the backend fails: the turn answered by the offline engine carries a plain notice
 * (shown as text, whatever the backend answered), and "Retry with <backend>" asks it again.
 * Deterministic modules: the page is under test here; the real client is in backend-fallback.test.ts.
 */

let backendUp = false;
/** What a dead backend's error looks like when it answered an HTML page; the page must show it as text. */
const FAILURE =
  'backend openai:m at http://127.0.0.1:9/v1: status 200 but not JSON (text/html): "<b>502 Bad Gateway</b>"';

const script = (reply: string) =>
  scriptedModules({
    frames: () => [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }],
    actions: [{ action: "inquire", symptom: [{ value: "fever" }] }],
    reply,
  });
const llm = script("LLM: have you had any fevers?");
const flaky: DialogueModules = {
  nlu: {
    id: "llm:openai:m",
    understand: (input, call) => (backendUp ? llm.nlu.understand(input, call) : Promise.reject(new Error(FAILURE))),
  },
  policy: llm.policy,
  nlg: llm.nlg,
};
const harness = chatPageHarness({
  modules: answerFailuresWith(flaky, script("Offline: any fevers?"), { backendId: "openai:m" }),
});

describe("the chat page when the backend fails", () => {
  it("shows the offline engine's answer with a notice on that turn, and Retry asks the backend again", async () => {
    const { page, cspViolations } = await harness.openChat({ viewport: { width: 1200, height: 800 } });
    expect(await page.locator("#retry").isVisible()).toBe(false);

    await page.fill("#message", "I've had a cough for a week.");
    await page.click("#send");
    await page.locator("#transcript li.doctor.offline").waitFor();
    const answered = page.locator("#transcript li").nth(2);
    expect(await answered.innerText()).toContain("Offline: any fevers?");
    // The notice is text on the turn, not an error: the backend's HTML is shown, never rendered.
    expect(await answered.locator(".fallback-notice").innerText()).toBe(
      `offline engine answered: openai:m failed at nlu: ${FAILURE}`,
    );
    expect(await page.locator("#transcript b").count()).toBe(0);
    expect(await page.locator("#status").getAttribute("class")).not.toBe("error");
    expect(await page.locator("#status").innerText()).toMatch(
      /offline engine answered the last turn because openai:m failed/,
    );
    expect(await page.locator("#retry").innerText()).toBe("Retry with openai:m");
    // The history goes on meanwhile: the patient can answer the offline engine's question.
    expect(await page.locator("#send").isDisabled()).toBe(false);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/chat-fallback.png` });

    backendUp = true;
    await page.click("#retry");
    await page.locator("#transcript li.doctor", { hasText: "LLM: have you had any fevers?" }).waitFor();
    expect(await page.locator("#transcript li").count()).toBe(3);
    expect(await page.locator(".fallback-notice").count()).toBe(0);
    expect(await page.locator("#retry").isVisible()).toBe(false);
    expect(await page.locator("#status").innerText()).toBe("");
    expect(cspViolations).toEqual([]);
  });
});
