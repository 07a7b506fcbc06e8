/**
 * The README's chat screenshot (docs/chat.png): the embedded engine takes a whole history from the
 * simulated patient of MediTOD dialogue 317 in the real page, in headless Chromium, to its diagnosis.
 *
 *   npx tsx docs/chat-screenshot.ts
 */
import { startChatServer } from "../server/app.ts";
import { loadMeditod } from "../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../src/modules/embedded/index.ts";
import { caseFromDialogue } from "../src/simulator/patient-simulator.ts";
import { launchChromium } from "../test-support/browser.ts";
const dataset = loadMeditod();
const engine = buildEmbeddedEngine(dataset, "train", { wording: "clean" });
const server = await startChatServer({
  modules: engine,
  cases: ["115", "317"].map((id) => caseFromDialogue(dataset, id)),
});
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
await page.goto(server.url);
await page.locator("#transcript li.doctor").first().waitFor();
await page.selectOption("#case", { index: 2 });
await page.click("#new");
await page.locator("#auto").waitFor({ state: "visible" });
await page.click("#auto");
await page.locator("#status", { hasText: "complete" }).waitFor({ timeout: 20000 });
await page.screenshot({ path: new URL("./chat.png", import.meta.url).pathname });
await browser.close();
await server.close();
