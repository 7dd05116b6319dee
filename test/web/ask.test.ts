/**
 * Ask and AI Resume in the page, in Debian's Chromium, against a fake OpenAI-compatible model on 127.0.0.1: the
 * answer's citations checked and shown (a supported sentence, one citing an invented event marked), a cited event
 * opened from the answer, the AI brief shown when it checks out and refused with the reason when it drops a fact;
 * and the API's refusals (no model configured, a foreign origin).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAskService } from "../../src/app/ask-service.ts";
import { blockWith, type FakeModel, faithfulBrief, startFakeModel } from "../helpers/fake-openai.ts";
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
let fake: FakeModel;
/** The Claude Code session with constraints and open failures. */
let claude = "";

beforeAll(async () => {
  buildWeb();
  index = await buildHistoryIndex();
  fake = await startFakeModel();
  const env = { HOME: index.dir, CAIRN_ASK_URL: fake.url, CAIRN_ASK_MODEL: "fake-model" };
  live = await startServer(scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] }), {
    history: index.app,
    ask: createAskService(index.app, env),
  });
  claude = index.app.session("0fae0449").session_id;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  await openPage(context, live.server.url);
}, BROWSER_TEST_MS);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await live?.close();
  await fake?.close();
  index?.close();
});

async function visit(path: string): Promise<Page> {
  const page = await newPage(context);
  await page.goto(`${live.server.origin}${path}`);
  return page;
}

describe("ask and AI Resume in the page", { timeout: BROWSER_TEST_MS }, () => {
  it("asks from the navigation, marks the sentence whose citation is invented, and opens a cited event", async () => {
    let cited = "";
    fake.reply = (ex) => {
      cited = blockWith(ex.user, "target shim binary not found");
      return [
        `Running python hoge.py failed with error: target shim binary not found [e:${cited}]. `,
        "It was fixed by reinstalling libfoo [e:0000000000000000].",
      ];
    };
    const page = await visit("/sessions");
    await page.click("nav a[data-nav=ask]");
    await page.waitForURL((url) => url.pathname === "/ask");
    await page.fill("#ask-box", "why did python hoge.py fail with target shim binary not found?");
    await page.click(".ask-form button");
    await page.locator(".ask-answer .check").waitFor();
    expect(await page.locator(".ask-answer .check").textContent()).toContain("1 of 2 claims cite evidence");
    expect(await page.locator(".sentence[data-verdict=supported]").count()).toBe(1);
    expect(await page.locator(".sentence[data-verdict=unsupported]").textContent()).toMatch(
      /libfoo.*cites an event that does not exist/s,
    );
    await shootBoth(page, "ask", () => page.locator(".ask-answer").waitFor());
    await page.locator(`.cited a.cite[href="/e/${cited}"]`).click();
    await page.waitForURL((url) => url.pathname === `/e/${cited}`);
  });

  it("shows the AI brief when it keeps every fact, and says why when one was dropped", async () => {
    fake.reply = (ex) => faithfulBrief(ex);
    const page = await visit(`/s/${claude}/brief`);
    await page.locator(".brief-view a.cite").first().waitFor({ timeout: 60_000 });
    await page.click("#ai-resume");
    await page.locator(".ai-brief .check.ok").waitFor({ timeout: 60_000 });
    expect(await page.locator(".ai-brief .check.ok").textContent()).toMatch(/keeps all \d+ must-keep facts/);
    expect(await page.locator("article.brief.ai a.cite").count()).toBeGreaterThan(0);

    let dropped = "";
    fake.reply = (ex) =>
      faithfulBrief(ex, (fact) => {
        if (dropped === "" && /^Do not|^No |^removeEventListener|^instead|^ensure/.test(fact)) dropped = fact;
        return fact === dropped;
      });
    await page.click("#ai-resume");
    await page.locator(".ai-brief .check.partial").waitFor({ timeout: 60_000 });
    expect(await page.locator(".ai-brief .check.partial").textContent()).toContain(
      "was rejected: it dropped 1 fact the brief must keep",
    );
    expect(await page.locator("article.brief.ai").count()).toBe(0);
  });

  it("the API refuses a foreign origin, and a server without a model says how to configure one", async () => {
    const post = (origin: string, server = live.server) =>
      fetch(`${server.origin}/api/ask`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, authorization: `Bearer ${server.token}` },
        body: JSON.stringify({ question: "what failed?" }),
      });
    expect((await post("http://evil.example")).status).toBe(403);
    const bare = await startServer(scriptedDriver({ version: 1, turns: [{ steps: [{ type: "text", text: "hi" }] }] }), {
      history: index.app,
      ask: createAskService(index.app, { HOME: index.dir }),
    });
    try {
      const r = await post(bare.server.origin, bare.server);
      expect(r.status).toBe(503);
      const body = (await r.json()) as { error: { code: string; hint: string } };
      expect(body.error.code).toBe("no_model");
      expect(body.error.hint).toContain("CAIRN_ASK_URL");
    } finally {
      await bare.close();
    }
  });
});
