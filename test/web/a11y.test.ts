/**
 * Every view checked by axe-core in Debian's Chromium, in the light and the dark theme: no serious or critical
 * violation of WCAG 2.1 A/AA (contrast included) or axe's best practices.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeViolations, seriousViolations } from "./helpers/axe.ts";
import { buildWeb, DESKTOP, launchChromium, openPage } from "./helpers/chromium.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

const script = {
  version: 1,
  model: "scripted-a11y",
  chunkDelayMs: 0,
  turns: [
    {
      steps: [
        {
          type: "text",
          text: "## Plan\n\nRun the **tests** with `npm test`:\n\n```ts\nconst x: number = 1; // one\n```",
        },
        { type: "tool", name: "read", input: { path: "src/a.ts" }, output: "export const a = 1;" },
        { type: "tool", name: "bash", input: { command: "npm test" }, output: "FAIL a.test.ts", isError: true },
        { type: "error", code: "rate_limit", message: "The model is being rate limited; retrying.", fatal: false },
        {
          type: "tool",
          name: "edit",
          permission: true,
          input: { path: "src/a.ts", oldText: "const a = 1;\n", newText: "const a = 2;\n" },
          output: "ok",
        },
      ],
    },
  ],
};

let browser: Browser;
let context: BrowserContext;
let live: TestServer;

beforeAll(async () => {
  buildWeb();
  live = await startServer(scriptedDriver(script));
  browser = await launchChromium();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await live?.close();
});

async function themed(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.selectOption("#theme", theme);
  await page.waitForSelector(`html[data-theme="${theme}"]`);
}

describe("accessibility (axe-core)", () => {
  it("the live view with a reply, tool cards, an error and an open prompt", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await openPage(context, live.server.url);
    await page.fill("#message", "check me");
    await page.press("#message", "Enter");
    await page.waitForSelector('.prompt[data-kind="tool_permission"]');
    await page.locator(".tool summary").first().click();
    for (const theme of ["light", "dark"] as const) {
      await themed(page, theme);
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
  });
});
