/**
 * The Usage view in Debian's Chromium over an index of the real Claude, Codex and pi transcripts (they record
 * rich token counts, and pi its own cost): reached from the navigation, its tables equal to the `usage` answer,
 * the period and split toggles, the agent filter, a session's bar opening that session, the note of what is not
 * counted, axe at 375 and 1280 px in both themes, and screenshots of each.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn } from "../../src/app/cairn.ts";
import type { UsageAnswerView } from "../../src/live/usage-types.ts";
import { describeViolations, seriousViolations } from "./helpers/axe.ts";
import {
  BROWSER_TEST_MS,
  buildWeb,
  DESKTOP,
  horizontalOverflow,
  launchChromium,
  newPage,
  openPage,
  PHONE,
  SCREENSHOTS,
  shoot,
} from "./helpers/chromium.ts";
import { buildHistoryIndex, type HistoryIndex } from "./helpers/history-index.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

let browser: Browser;
let context: BrowserContext;
let index: HistoryIndex;
let live: TestServer;
let timezone: string;

beforeAll(async () => {
  buildWeb();
  index = await buildHistoryIndex();
  live = await startServer(scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] }), {
    history: index.app,
  });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  const first = await openPage(context, live.server.url);
  timezone = await first.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await first.close();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await live?.close();
  index?.close();
});

const usage = (input: Record<string, unknown>): Promise<UsageAnswerView> =>
  Promise.resolve(index.app.usage({ timezone, ...input }) as UsageAnswerView);

async function visit(path: string, on: BrowserContext = context): Promise<Page> {
  const page = await newPage(on);
  await page.goto(`${live.server.origin}${path}`);
  await page.locator("#usage-cost-data tbody tr").first().waitFor({ state: "attached" });
  return page;
}

/** "$1,234.56" → 1234.56; "12,345" → 12345; "96.5%" → 96.5; "—" → null. */
function numberIn(text: string): number | null {
  const t = text.trim();
  if (t === "—") return null;
  return Number(t.replace(/[$,%]/g, ""));
}

/** The cells of a chart's table by row key and field, as numbers. */
async function tableOf(page: Page, id: string): Promise<Map<string, Record<string, number | null>>> {
  const rows = await page.locator(`#${id}-data tbody tr`).evaluateAll((trs) =>
    trs.map((tr) => ({
      key: tr.getAttribute("data-key") ?? "",
      cells: [...tr.querySelectorAll("[data-field]")].map((td) => [
        td.getAttribute("data-field") ?? "",
        td.textContent ?? "",
      ]),
    })),
  );
  return new Map(rows.map((r) => [r.key, Object.fromEntries(r.cells.map(([f, t]) => [f, numberIn(t!)]))]));
}

function expectSameNumbers(table: Map<string, Record<string, number | null>>, answer: UsageAnswerView): void {
  expect([...table.keys()]).toEqual(answer.groups.map((g) => g.key));
  for (const g of answer.groups) {
    const row = table.get(g.key)!;
    expect(row["cost"], g.key).toBeCloseTo(g.cost, 2);
    expect(row["total"], g.key).toBe(g.total);
    expect(row["calls"], g.key).toBe(g.calls);
    if ("recorded_cost" in row) {
      if (g.recorded_cost === null) expect(row["recorded_cost"]).toBeNull();
      else expect(row["recorded_cost"], g.key).toBeCloseTo(g.recorded_cost, 2);
    }
  }
}

async function textOf(at: Locator): Promise<string> {
  return (await at.textContent()) ?? "";
}

async function figure(page: Page, field: string): Promise<number | null> {
  return numberIn(await textOf(page.locator(`.usage-figure[data-field=${field}] .usage-figure-value`)));
}

/** How far the view (the page's scrolling box) scrolls sideways: 0 when wide tables scroll in their own boxes. */
function sideways(page: Page): Promise<number> {
  return page.locator("#view").evaluate((view) => view.scrollWidth - view.clientWidth);
}

/** The whole view: the page scrolls inside `#view`, so the window is made as tall as the view's content. */
async function shootWhole(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  const height = await page.locator("#view").evaluate((view) => view.scrollHeight + view.getBoundingClientRect().top);
  await page.setViewportSize({ width: size.width, height: Math.ceil(height) });
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`) });
  await page.setViewportSize(size);
}

describe("the Usage view", { timeout: BROWSER_TEST_MS }, () => {
  it("is reached from the navigation, and its tables and totals are the usage answer's", async () => {
    const page = await newPage(context);
    await page.goto(`${live.server.origin}/`);
    await page.click("nav a[data-nav=usage]");
    expect(new URL(page.url()).pathname).toBe("/usage");
    await page.locator("#usage-cost-data tbody tr").first().waitFor({ state: "attached" });

    const days = await usage({ by: "day" });
    expect(days.groups.length).toBeGreaterThan(3);
    expectSameNumbers(await tableOf(page, "usage-cost"), days);
    expect(await figure(page, "cost")).toBeCloseTo(days.totals.cost, 2);
    expect(await figure(page, "calls")).toBe(days.totals.calls);
    // pi prices its own calls: its count stands beside cairn's, overall and in its row of the agent table.
    expect(days.totals.recorded_cost).not.toBeNull();
    expect(await figure(page, "recorded_cost")).toBeCloseTo(days.totals.recorded_cost!, 2);
    const pi = (await usage({ by: "agent" })).groups.find((g) => g.key === "pi")!;
    const piRow = page.locator('.usage-agents tr[data-key="pi"]');
    expect(numberIn(await textOf(piRow.locator("[data-field=recorded_cost]")))).toBeCloseTo(pi.recorded_cost!, 2);
    expect(numberIn(await textOf(piRow.locator("[data-field=cost]")))).toBeCloseTo(pi.cost, 2);

    const sessions = await usage({ by: "session", limit: 10 });
    expectSameNumbers(await tableOf(page, "usage-sessions"), sessions);
    const cache = await tableOf(page, "usage-cache");
    for (const g of days.groups) {
      const share = cache.get(g.key)!["share"]!;
      expect(share).toBeCloseTo((100 * g.cache_read) / (g.input + g.cache_read + g.cache_write), 1);
    }
    await page.close();
  });

  it("switches the period and the split, and filters by agent, in the URL", async () => {
    const page = await visit("/usage");
    await page.getByRole("button", { name: "week", exact: true }).click();
    await page.waitForURL(/by=week/);
    const weeks = await usage({ by: "week" });
    await page.locator("#usage-cost figcaption", { hasText: "per week" }).waitFor();
    await expect.poll(async () => (await tableOf(page, "usage-cost")).size).toBe(weeks.groups.length);
    expectSameNumbers(await tableOf(page, "usage-cost"), weeks);

    await page.getByRole("button", { name: "by model" }).click();
    await page.waitForURL(/stack=model/);
    const models = new Set(weeks.groups.flatMap((g) => g.by_model.map((m) => m.name)));
    const legend = await page.locator("#usage-cost .legend li").allInnerTexts();
    expect(legend.length).toBeGreaterThan(1);
    for (const name of legend) expect(name === "other" || models.has(name), name).toBe(true);

    await page.selectOption("#usage-provider", "pi");
    await page.waitForURL(/provider=pi/);
    const pi = await usage({ by: "week", provider: ["pi"] });
    await expect.poll(async () => [...(await tableOf(page, "usage-cost")).keys()]).toEqual(pi.groups.map((g) => g.key));
    expectSameNumbers(await tableOf(page, "usage-cost"), pi);
    await page.close();
  });

  it("opens a session from its bar and from its row", async () => {
    const top = (await usage({ by: "session", limit: 10 })).groups;
    const page = await visit("/usage");
    const canvas = page.locator("#usage-sessions canvas");
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    // Bars fill rows top to bottom, costliest first; a click anywhere in the first row picks its bar.
    const rowHeight = (box.height - 48) / top.length;
    await page.mouse.click(box.x + box.width * 0.75, box.y + 8 + rowHeight / 2);
    await page.waitForURL(`**/s/${top[0]!.key}`);

    const again = await visit("/usage");
    const link = again.locator(`#usage-sessions-data tr[data-key="${top[1]!.key}"] a`);
    expect(await link.getAttribute("href")).toBe(`/s/${top[1]!.key}`);
    await page.close();
    await again.close();
  });

  it("says which usage is unknown and which calls are unpriced", async () => {
    const page = await newPage(context);
    // The real transcripts all record tokens and price: give the answer the gaps a real index can have.
    await page.route("**/api/history/usage?**", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as UsageAnswerView;
      await route.fulfill({
        response,
        json: {
          ...body,
          agents_without_usage: ["gemini", "opencode"],
          unpriced_models: [{ model: "mystery-1", calls: 3 }],
        },
      });
    });
    await page.goto(`${live.server.origin}/usage`);
    await page.locator("#usage-silent").waitFor();
    expect(await textOf(page.locator("#usage-silent"))).toContain("gemini, opencode");
    expect(await textOf(page.locator("#usage-unpriced"))).toContain("mystery-1 (3 calls)");
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await shoot(page, "usage-gaps");
    }
    await page.close();
  });

  it("the Sessions page says the week's spend and its costliest session, as cairn's overview does", async () => {
    // A clock in the week of the Claude Code transcript of 2025-09-20 (weeks from Monday, in the server's zone).
    const now = () => new Date("2025-09-20T12:00:00Z");
    const app = createCairn({ db: index.db, env: { HOME: index.dir, TZ: "UTC" }, cwd: index.dir, now });
    const driver = scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] });
    const server = await startServer(driver, { history: app });
    try {
      const week = app.overview().week_usage!;
      expect(week.cost).toBeGreaterThan(1);
      const sized = await browser.newContext({ viewport: DESKTOP });
      await (await openPage(sized, server.server.url)).close();
      const page = await newPage(sized);
      await page.goto(`${server.server.origin}/sessions`);
      const line = page.locator(".week-spend");
      await line.waitFor();
      expect(await line.textContent()).toContain(`$${week.cost.toFixed(2)}`);
      await line.locator("a", { hasText: week.top!.title!.slice(0, 20) }).click();
      await page.waitForURL(new RegExp(`/s/${week.top!.session_id.slice(0, 8)}`));
      await sized.close();
    } finally {
      await server.close();
      app.close();
    }
  });

  it("shows an empty state when nothing was recorded in the range", async () => {
    const page = await newPage(context);
    await page.goto(`${live.server.origin}/usage?since=2099-01-01`);
    await page.locator(".empty", { hasText: "No recorded usage matches" }).waitFor();
    // No "$0.00": an empty range says nothing was recorded, not that nothing was spent.
    expect(await page.locator(".usage-totals").count()).toBe(0);
    await page.close();
  });

  for (const [width, size] of [
    ["375", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    it(`passes axe at ${width} px in both themes, with nothing scrolling sideways`, async () => {
      const sized = await browser.newContext({ viewport: size });
      await (await openPage(sized, live.server.url)).close();
      const page = await visit("/usage", sized);
      await page.locator("#usage-sessions canvas").waitFor();
      for (const theme of ["light", "dark"] as const) {
        await page.selectOption("#theme", theme);
        await page.waitForSelector(`html[data-theme="${theme}"]`);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await sideways(page)).toBe(0);
        const violations = await seriousViolations(page);
        expect(violations, `${theme}:\n${describeViolations(violations)}`).toEqual([]);
        await shootWhole(page, `usage-${theme}`);
        for (const part of ["usage-totals", "usage-cost", "usage-sessions", "usage-cache"]) {
          const at = page.locator(part.startsWith("usage-totals") ? ".usage-totals" : `#${part}`);
          await at.screenshot({ path: join(SCREENSHOTS, `${part}-${theme}-${width}.png`) });
        }
      }
      // The tables shown: wide ones scroll in their own box, not the page.
      for (const id of ["usage-cost", "usage-sessions", "usage-cache"]) {
        await page.locator(`#${id} .chart-controls > button`, { hasText: "Table" }).click();
      }
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await sideways(page)).toBe(0);
      await shootWhole(page, "usage-tables");
      await sized.close();
    });
  }
});
