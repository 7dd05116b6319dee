/**
 * The conversation view in Debian's Chromium, on real Claude Code, Codex and pi sessions: the agent's markdown as
 * elements, an edit as a diff, tool output folded behind its card with its size, a subagent nested where it
 * began, a line where the day changes, and `?at=` opening at an event; screenshots at 375 and 1280 px.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationItem } from "../../src/app/conversation.ts";
import {
  BROWSER_TEST_MS,
  buildWeb,
  DESKTOP,
  launchChromium,
  newPage,
  openPage,
  shootBoth,
} from "./helpers/chromium.ts";
import { buildHistoryIndex, type HistoryIndex } from "./helpers/history-index.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

let browser: Browser;
let context: BrowserContext;
let index: HistoryIndex;
let live: TestServer;

beforeAll(async () => {
  buildWeb();
  index = await buildHistoryIndex();
  live = await startServer(scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] }), {
    history: index.app,
  });
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

type Tool = Extract<ConversationItem, { kind: "tool" }>;

/** An edit whose text the transcript kept (some published transcripts had their arguments redacted). */
function isEdit(i: ConversationItem): i is Tool {
  if (i.kind !== "tool") return false;
  const t = i.typed;
  if (t?.kind === "edit") return (t.edits ?? []).some((e) => e.new !== undefined && e.old !== e.new);
  return t?.kind === "patch" && typeof t.patch === "string" && /^[+-]/m.test(t.patch);
}

/** The session of an agent with the most events that has an edit to show. */
async function sessionWithEdit(provider: string): Promise<{ id: string; items: ConversationItem[] }> {
  const candidates = index.app
    .sessions({ limit: 500, all: true })
    .filter((s) => s.provider === provider)
    .sort((a, b) => b.event_count - a.event_count);
  for (const s of candidates) {
    const c = await index.app.conversation({ session: s.session_id });
    if (c.items.some(isEdit)) return { id: s.session_id, items: c.items };
  }
  throw new Error(`no ${provider} session with an edit among the real fixtures`);
}

async function visit(path: string): Promise<Page> {
  const page = await newPage(context);
  await page.goto(`${live.server.origin}${path}`);
  await page.locator(".conversation .conv-item").first().waitFor();
  return page;
}

describe("the conversation view", { timeout: BROWSER_TEST_MS }, () => {
  it.each(["claude", "codex", "pi"])("reads a real %s session as a conversation", async (provider) => {
    const { id, items } = await sessionWithEdit(provider);
    const page = await visit(`/s/${id}/conversation`);
    // The agent's markdown is elements, not asterisks and backticks.
    await page.locator(".conv-item.message.assistant .markdown:not(.plain)").first().waitFor();
    expect(
      await page
        .locator(".conv-item.message.assistant .markdown :is(p, code, strong, em, li, pre, h1, h2, h3)")
        .count(),
    ).toBeGreaterThan(0);
    // A day line before the first item.
    expect(await page.locator(".conv-day").count()).toBeGreaterThan(0);

    // An edit opens as a diff.
    const edit = items.find(isEdit)!;
    const card = page.locator(`[id="e-${edit.event_id}"]`);
    await card.locator("summary").first().click();
    await card.locator("figure.diff .line.add, figure.diff .line.del").first().waitFor();

    // Output stays folded behind its card, which says how much there is; opened, it is there.
    const withOutput = items.find(
      (i): i is Tool => i.kind === "tool" && i !== edit && (i.output?.text.trim().length ?? 0) > 20,
    )!;
    const outCard = page.locator(`[id="e-${withOutput.event_id}"]`);
    await expect.poll(() => outCard.locator("pre").count()).toBe(0);
    expect(await outCard.locator(".size").textContent()).toMatch(/chars|kB|MB/);
    await outCard.locator("summary").first().click();
    await outCard.locator(".output pre").first().waitFor();

    await shootBoth(page, `conversation-${provider}`, () => page.locator(".conv-item").first().waitFor());
    await page.close();
  });

  it("names no session by a bare id, in the list or at the head of its conversation", async () => {
    const ID_LIKE = /^(session\s+)?[0-9a-f]{6,}(-[0-9a-f]{4,})*$|^[0-9a-f-]{16,}$/i;
    const page = await newPage(context);
    await page.goto(`${live.server.origin}/sessions?all=1`);
    await page.locator(".session-card").first().waitFor();
    const titles = await page.locator(".session-card .card-title").allTextContents();
    expect(titles.length).toBe(index.app.sessions({ limit: 500, all: true }).length);
    for (const t of titles) expect(t.trim()).not.toMatch(ID_LIKE);
    const some = index.app.sessions({ limit: 500, all: true }).find((s) => s.kind === "subagent")!;
    await page.goto(`${live.server.origin}/s/${some.session_id}/conversation`);
    expect((await page.locator("h1").first().textContent())?.trim()).not.toMatch(ID_LIKE);
    await page.close();
  });

  it("nests a subagent where it began, folded, and opens it in place", async () => {
    const child = index.app.sessions({ limit: 500, all: true }).find((s) => s.kind === "subagent")!;
    const page = await visit(`/s/${child.parent_session_id}/conversation`);
    const nested = page.locator(`[id="s-${child.session_id}"]`);
    await nested.locator("summary").first().click();
    await nested.locator(".conv-nested .conv-item").first().waitFor();
    // It sits among the parent's items, after the item before it in time, not at the end.
    const after = await nested.evaluate((el) => el.nextElementSibling !== null);
    expect(after).toBe(true);
    await shootBoth(page, "conversation-subagent", () => nested.waitFor());
    await page.close();
  });

  it("opens at the block of any event, a derived one included, and links back to the event", async () => {
    const { id, items } = await sessionWithEdit("claude");
    const tool = items.find((i): i is Tool => i.kind === "tool" && i.marks.length > 0) ?? items.find(isEdit)!;
    const derived = tool.marks[0]?.event_id ?? tool.event_id;
    const page = await visit(`/s/${id}/conversation?at=${derived}`);
    const focused = page.locator(".conv-tool.focus");
    await focused.waitFor();
    expect(await focused.getAttribute("id")).toBe(`e-${tool.event_id}`);
    const box = await focused.boundingBox();
    expect(box && box.y >= 0 && box.y < (page.viewportSize()?.height ?? 0)).toBe(true);
    await page.close();
  });
});
