/**
 * The README's report screenshot (docs/report.png): `npm run bench`'s report.html (the embedded engine
 * on the test dialogue), opened in headless Chromium, top of the page.
 *
 *   npm run bench && npx tsx docs/report-screenshot.ts
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { launchChromium } from "../test-support/browser.ts";

const report = bundledPath("runs", "default", "report.html");
if (!existsSync(report)) throw new Error(`no ${report}: run npm run bench first`);
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1160, height: 1000 } });
await page.goto(pathToFileURL(report).href);
await page.screenshot({ path: new URL("./report.png", import.meta.url).pathname });
await browser.close();
