/**
 * The history views in Debian's Chromium, over an index of the real transcripts: each view reached from the
 * page and from its URL, search results while typing, the keyboard, a brief's citation opening its event, and
 * screenshots of every view at 375 and 1280 px with nothing scrolling sideways.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_TEST_MS,
  buildWeb,
  DESKTOP,
  launchChromium,
  newPage,
  openPage,
  PHONE,
  shootBoth,
} from "./helpers/chromium.ts";
import { buildHistoryIndex, type HistoryIndex } from "./helpers/history-index.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

let browser: Browser;
let context: BrowserContext;
let index: HistoryIndex;
let live: TestServer;
/** The session with the most events: the one the timeline, brief and event tests read. */
let big: { session_id: string; event_count: number; provider: string };

beforeAll(async () => {
  buildWeb();
  index = await buildHistoryIndex();
  live = await startServer(scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] }), {
    history: index.app,
  });
  const sessions = index.app.sessions({ limit: 100 });
  big = sessions.reduce((a, b) => (b.event_count > a.event_count ? b : a));
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  await openPage(context, live.server.url);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await live?.close();
  index?.close();
});

async function visit(path: string): Promise<Page> {
  const page = await newPage(context);
  await page.goto(`${live.server.origin}${path}`);
  return page;
}

/** Keys dispatched in one task, so the page cannot re-render between them. */
async function keyBurst(page: Page, keys: string[]): Promise<void> {
  await page.evaluate(
    `for (const key of ${JSON.stringify(keys)}) document.body.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }))`,
  );
}

describe("history views", { timeout: BROWSER_TEST_MS }, () => {
  it("lists sessions from the navigation and from a filtered URL", async () => {
    const page = await visit("/");
    await page.click("nav a[data-nav=sessions]");
    expect(new URL(page.url()).pathname).toBe("/sessions");
    const cards = page.locator(".session-card");
    await cards.first().waitFor();
    const all = index.app.sessions({ limit: 100 });
    expect(await cards.count()).toBe(all.length);

    await page.selectOption("#filter-provider", "codex");
    await page.waitForURL(/provider=codex/);
    // The previous list stays on screen until the filtered one arrives: wait for every other agent to go.
    await page.locator('.session-card .provider:not(:text-is("codex"))').first().waitFor({ state: "detached" });
    expect(await page.locator('.session-card .provider:text-is("codex")').count()).toBeGreaterThan(0);

    const direct = await visit("/sessions?provider=pi");
    await direct.locator(".session-card").first().waitFor();
    expect(new Set(await direct.locator(".session-card .provider").allTextContents())).toEqual(new Set(["pi"]));
    await shootBoth(direct, "sessions", () => direct.locator(".session-card").first().waitFor());
    await direct.close();
    await page.close();
  });

  it("searches as you type, keeps the query in the URL, and moves through hits with j/k", async () => {
    const page = await visit("/sessions");
    await page.locator(".session-card").first().waitFor();
    await page.keyboard.press("/");
    await page.waitForURL(/\/search/);
    await page.locator("#search-box:focus").waitFor();
    // Typed key by key and never submitted: results come while typing.
    await page.keyboard.type("error", { delay: 40 });
    await page.locator(".hits .hit").first().waitFor();
    await page.waitForURL((url) => url.searchParams.get("q") === "error");
    await page.locator("#search-status", { hasText: /\d+\+? hits? in \d+ ms/ }).waitFor();
    expect(await page.locator(".hits mark").count()).toBeGreaterThan(0);

    await page.locator("#search-box").blur();
    // Three keys in one task, before the page can re-render: each must move on from the one before.
    await keyBurst(page, ["j", "j", "j"]);
    await page.locator('.hit[aria-current="true"][data-index="2"]').waitFor();
    await page.keyboard.press("k");
    await page.locator('.hit[aria-current="true"][data-index="1"]').waitFor();
    await page.keyboard.press("k");
    await page.locator('.hit[aria-current="true"][data-index="0"]').waitFor();
    const firstHit = await page.locator(".hit").first().locator(".hit-link").getAttribute("href");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === firstHit);
    await page.locator(".facts").waitFor();

    const direct = await visit("/search?q=test%3Afail");
    await direct.locator(".hits .hit, .empty").first().waitFor();
    expect(await direct.locator("#search-box").inputValue()).toBe("test:fail");
    await shootBoth(direct, "search", () => direct.locator(".hits .hit, .empty").first().waitFor());
    const bad = await visit("/search?q=provider%3Anope");
    await bad.locator("#search-status .bad", { hasText: "unknown provider" }).waitFor();
    // A prefix that names several sessions lists them, each a link that opens it.
    const several = await visit("/s/0");
    const candidates = several.locator(".failure .candidates a");
    await candidates.first().waitFor();
    expect(await candidates.count()).toBeGreaterThan(1);
    const first = (await candidates.first().textContent())!;
    await candidates.first().click();
    await several.waitForURL((url) => url.pathname === `/s/${first}`);
    await several.locator(".timeline .row").first().waitFor();
    for (const p of [page, direct, bad, several]) await p.close();
  });

  it("shows a session's timeline from its card and from its URL, and jumps to an event by id", async () => {
    const page = await visit(`/sessions`);
    await page.locator(`.session-card a[href="/s/${big.session_id}"]`).click();
    await page.locator(".timeline .row").first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/s/${big.session_id}`);
    // Windowed: a long session never puts all its rows in the page.
    expect(big.event_count).toBeGreaterThan(200);
    expect(await page.locator(".timeline .row").count()).toBeLessThan(120);

    const window = index.app.timeline({ session: big.session_id, from: 0, limit: 400 });
    const target = window.rows[Math.min(300, window.rows.length - 1)]!;
    await page.fill("#jump-box", target.event_id.slice(0, 12));
    await page.press("#jump-box", "Enter");
    await page.waitForURL((url) => url.searchParams.get("at") === target.event_id);
    const selected = page.locator(".row.selected");
    await selected.waitFor();
    expect(await selected.locator(".row-pos").textContent()).toBe(`@${target.ordinal}`);
    await selected.locator(".row-detail a", { hasText: "Open event" }).waitFor();
    // j j in one task, before the page re-renders, moves two rows on.
    const at = Number(await page.locator(".timeline-item:has(.row.selected)").getAttribute("data-index"));
    await keyBurst(page, ["j", "j"]);
    await page.locator(`.timeline-item[data-index="${at + 2}"] .row.selected`).waitFor();

    const direct = await visit(`/s/${big.session_id}?at=${target.event_id}`);
    await direct.locator(".row.selected .row-detail").waitFor();
    const marks = new Set(index.app.timeline({ session: big.session_id }).rows.map((r) => r.mark));
    expect(marks.has("prompt")).toBe(true);
    await shootBoth(direct, "timeline", () => direct.locator(".row.selected").waitFor());
    await page.close();
    await direct.close();
  });

  it("shows an event with its evidence chain and edges, from the timeline and from its URL", async () => {
    const result = index.app.timeline({ session: big.session_id }).rows.find((r) => r.mark === "output")!;
    const page = await visit(`/s/${big.session_id}?at=${result.event_id}`);
    await page.locator(".row.selected .row-detail a", { hasText: "Open event" }).click();
    await page.waitForURL((url) => url.pathname === `/e/${result.event_id}`);
    await page.locator(".chain li").first().waitFor();
    expect(await page.locator(".chain li a").first().textContent()).toContain("tool call");
    expect(await page.locator(".edges").count()).toBeGreaterThan(0);

    const direct = await visit(`/e/${result.event_id}`);
    await direct.locator(".facts").waitFor();
    expect(await direct.locator("[data-event-id]").getAttribute("data-event-id")).toBe(result.event_id);
    await shootBoth(direct, "event", () => direct.locator(".facts").waitFor());
    const missing = await visit("/e/ffffffffffffffffffff");
    await missing.locator(".failure", { hasText: "no event" }).waitFor();
    for (const p of [page, direct, missing]) await p.close();
  });

  it("opens the event a brief's citation names", async () => {
    const page = await visit(`/s/${big.session_id}`);
    await page.locator(".page-actions a", { hasText: "Resume brief" }).click();
    await page.waitForURL((url) => url.pathname === `/s/${big.session_id}/brief`);
    const cite = page.locator(".brief-view a.cite").first();
    await cite.waitFor({ timeout: 20_000 });
    // For a person: the goal heads it, no section is empty, nothing is addressed to a model, and a citation says
    // what it cites when focused.
    expect(await page.locator(".brief-headline h2").first().textContent()).toMatch(/^Goal|^Latest request/);
    for (const count of await page.locator(".brief-section .count").allTextContents())
      expect(Number(count)).toBeGreaterThan(0);
    expect(await page.locator(".brief-view").textContent()).not.toMatch(
      /\[e:|cites source events|re-read a file before editing/,
    );
    await cite.focus();
    await page.locator(".cite-wrap:focus-within .cite-tip").waitFor();
    const href = (await cite.getAttribute("href"))!;
    expect(href).toMatch(/^\/e\/[A-Za-z0-9_-]+$/);
    await cite.click();
    await page.waitForURL((url) => url.pathname === href);
    expect(await page.locator("[data-event-id]").getAttribute("data-event-id")).toBe(href.slice(3));

    const direct = await visit(`/s/${big.session_id}/brief`);
    await shootBoth(direct, "brief", () => direct.locator(".brief-view a.cite").first().waitFor({ timeout: 20_000 }));
    await page.close();
    await direct.close();
  }, 90_000); // A brief of a 1,800-event session takes seconds on a busy machine.

  it("lists threads and shows one's merged timeline, from the list and from its URL", async () => {
    const page = await visit("/threads");
    const card = page.locator(".cards .card", { hasText: "2 sessions" }).first();
    await card.waitFor();
    expect(await card.textContent()).toContain("shares the files `src/cart/tax-rules.ts` and `src/cart/total.ts`");
    const link = card.locator(".card-title");
    const href = (await link.getAttribute("href"))!;
    await link.click();
    await page.waitForURL((url) => url.pathname === href);
    await page.locator(".timeline .row").first().waitFor();
    expect(await page.locator(".legend li").count()).toBe(2);
    expect(new Set(await page.locator(".legend .provider").allTextContents())).toEqual(new Set(["claude", "codex"]));
    // One timeline, both sessions' rows, each tagged with its session.
    expect(new Set(await page.locator(".timeline .row-tag").allTextContents())).toEqual(new Set(["s1", "s2"]));
    expect(await page.locator(".page-head", { hasText: "shares the files" }).textContent()).toContain("total.ts");

    await shootBoth(page, "threads-thread", () => page.locator(".timeline .row").first().waitFor());
    const list = await visit("/threads");
    await shootBoth(list, "threads", () => list.locator(".cards .card").first().waitFor());
    const direct = await visit(href);
    await direct.locator(".timeline .row").first().waitFor();
    expect(await direct.locator(".legend li").count()).toBe(2);
    await shootBoth(direct, "thread", () => direct.locator(".timeline .row").first().waitFor());
    for (const p of [page, list, direct]) await p.close();
  });

  it("fits a 375 px phone on every view", async () => {
    const phone = await browser.newContext({ viewport: PHONE });
    const page = await openPage(phone, live.server.url);
    for (const path of ["/sessions", `/s/${big.session_id}`, "/search?q=error", "/threads"]) {
      await page.goto(`${live.server.origin}${path}`);
      await page.locator(".page-head h1").waitFor();
      expect(await page.locator("html").evaluate((h) => h.scrollWidth - h.clientWidth), path).toBe(0);
    }
    await phone.close();
  });
});
