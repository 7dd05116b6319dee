/**
 * Every view checked by axe-core in Debian's Chromium, at a phone's width and a desktop's, in the light and the
 * dark theme: no serious or critical violation of WCAG 2.2 A/AA (contrast and target size included) or axe's best
 * practices.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeViolations, seriousViolations } from "./helpers/axe.ts";
import { BROWSER_TEST_MS, buildWeb, DESKTOP, launchChromium, openPage, PHONE } from "./helpers/chromium.ts";
import { buildHistoryIndex, type HistoryIndex, THREAD_PAIR } from "./helpers/history-index.ts";
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
let index: HistoryIndex;

beforeAll(async () => {
  buildWeb();
  index = await buildHistoryIndex();
  live = await startServer(scriptedDriver(script), { history: index.app });
  browser = await launchChromium();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await live?.close();
  index?.close();
});

async function themed(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.selectOption("#theme", theme);
  await page.waitForSelector(`html[data-theme="${theme}"]`);
}

const big = () => index.app.sessions({ limit: 100 }).reduce((a, b) => (b.event_count > a.event_count ? b : a));
const output = () => index.app.timeline({ session: big().session_id }).rows.find((r) => r.mark === "output")!;
const withSubagent = () =>
  index.app.sessions({ limit: 100, all: true }).find((s) => s.kind !== "main" && s.parent_session_id)!
    .parent_session_id!;
const pairThread = async () =>
  (await index.app.threads()).threads.find((t) => t.sessions.some((s) => s.session_id === THREAD_PAIR.codex))!
    .thread_id;

async function checkBothThemes(page: Page): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await themed(page, theme);
    const violations = await seriousViolations(page);
    expect(violations, `${page.url()} in ${theme}:\n${describeViolations(violations)}`).toEqual([]);
  }
}

describe("accessibility (axe-core)", { timeout: BROWSER_TEST_MS }, () => {
  it("the live view with a reply, tool cards, an error and an open prompt, at 1280 and 375 px", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await openPage(context, live.server.url);
    await page.fill("#message", "check me");
    await page.press("#message", "Enter");
    await page.waitForSelector('.prompt[data-kind="tool_permission"]');
    await page.locator(".tool summary").first().click();
    await checkBothThemes(page);
    await page.setViewportSize(PHONE);
    await checkBothThemes(page);
  });

  const views: [string, () => string | Promise<string>, string][] = [
    ["sessions", () => "/sessions", ".session-card"],
    ["search results", () => "/search?q=error", ".hits .hit"],
    ["search, empty", () => "/search", ".empty"],
    ["timeline", () => `/s/${big().session_id}?at=${output().event_id}`, ".row.selected .row-detail a"],
    ["event", () => `/e/${output().event_id}`, ".facts"],
    ["brief", () => `/s/${big().session_id}/brief`, ".brief-view a.cite"],
    ["conversation", () => `/s/${big().session_id}/conversation?at=${output().event_id}`, ".conv-tool.focus"],
    ["conversation with a subagent", () => `/s/${withSubagent()}/conversation`, ".conv-subagent"],
    ["threads", () => "/threads", ".cards .card"],
    ["thread", async () => `/t/${await pairThread()}`, ".timeline .row"],
    ["sessions, none match", () => "/sessions?provider=codex&project=nowhere", ".empty"],
    ["event, missing", () => "/e/ffffffffffffffff", ".failure"],
  ];
  const widths = [
    ["1280 px", DESKTOP],
    ["375 px", PHONE],
  ] as const;
  it.each(views.flatMap(([name, path, ready]) => widths.map(([w, size]) => [name, w, path, ready, size] as const)))(
    "%s at %s, in both themes",
    async (_name, _width, path, ready, size) => {
      const sized = await browser.newContext({ viewport: size });
      await (await openPage(sized, live.server.url)).close();
      const page = await sized.newPage();
      await page.goto(`${live.server.origin}${await path()}`);
      await page.locator(ready).first().waitFor({ timeout: 20_000 });
      // Folded parts are part of the view: open the first of each kind.
      for (const fold of [".conv-subagent > summary", ".conv-tool details > summary", ".brief-model > summary"]) {
        const summary = page.locator(fold).first();
        if ((await summary.count()) > 0) await summary.click();
      }
      await checkBothThemes(page);
      await sized.close();
    },
  );
});
