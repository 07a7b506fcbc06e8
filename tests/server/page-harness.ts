/**
 * The chat page under test: a chat server for the tests of a file, headless Chromium, and pages that
 * record what they load and what the Content Security Policy refused. The helper closes pages when
 * their test finishes, and the server after the file's last test, passed or failed.
 */
import type { Browser, Page, Response } from "playwright-core";
import { beforeAll, onTestFinished } from "vitest";
import type { ChatServerOptions } from "../../server/app.ts";
import { launchChromium } from "../../test-support/browser.ts";
import { chatServerForFile, type ChatServer } from "./chat-server.ts";

/** Console messages of a refusal under the page's CSP (an inline script or style the page needed, say). */
const CSP_REFUSAL = /Content Security Policy|Refused to/i;

/** An open chat page with the doctor's greeting shown, and what it has done so far. */
export interface ChatPage {
  readonly page: Page;
  /** The response that loaded the page. */
  readonly loaded: Response | null;
  /** The URL of every request the page made. */
  readonly requests: readonly string[];
  /** Console messages of refusals under the CSP: none while the page keeps to the policy. */
  readonly cspViolations: readonly string[];
}

export interface ChatPageHarness {
  /** The chat server's URL. */
  readonly url: string;
  /** The chat server's sessions (read inside a test). */
  readonly registry: ChatServer["registry"];
  /**
   * Opens a page (with Playwright's page `options`) on `url` (default: this harness's server) and
   * waits for the doctor's greeting. The page is closed when the current test finishes.
   */
  openChat(options?: Parameters<Browser["newPage"]>[0], url?: string): Promise<ChatPage>;
}

/**
 * One Chromium for the test process, shared by the files it runs one after another (`isolate: false`
 * keeps this module between them): starting it cost about 2.5 s of CPU a file. Each page has a
 * browser context of its own (`newPage`), so no cookie or storage passes between tests. It ends with
 * the process (Playwright closes its browsers on the signals that end a worker, and Chromium exits when
 * its pipe closes); a browser that crashed or failed to start is started again for the next file.
 */
let sharedBrowser: Promise<Browser> | undefined;
function processChromium(): Promise<Browser> {
  sharedBrowser ??= launchChromium().then(
    (browser) => {
      browser.on("disconnected", () => (sharedBrowser = undefined));
      return browser;
    },
    (error: unknown) => {
      sharedBrowser = undefined;
      throw error;
    },
  );
  return sharedBrowser;
}

/** A chat server with `options` and headless Chromium, for the tests of this file. */
export function chatPageHarness(options: ChatServerOptions): ChatPageHarness {
  const server = chatServerForFile(() => options);
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await processChromium();
  });
  return {
    get url() {
      return server.url;
    },
    get registry() {
      return server.registry;
    },
    async openChat(pageOptions, url = server.url) {
      if (!browser) throw new Error("Chromium starts in beforeAll: open pages inside a test");
      const page = await browser.newPage(pageOptions);
      onTestFinished(() => page.close());
      const requests: string[] = [];
      const cspViolations: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (CSP_REFUSAL.test(message.text())) cspViolations.push(message.text());
      });
      const loaded = await page.goto(url);
      await page.locator("#transcript li.doctor").first().waitFor();
      return { page, loaded, requests, cspViolations };
    },
  };
}
