/**
 * The live view in Debian's Chromium against a real server: markdown as elements (never raw HTML, never an
 * unsafe link), long output folded, an edit as a diff, a 360-line write whose Allow stays in view, the phone
 * layout, New session confirmed and announced to other tabs, a dead connection noticed by the page, and a
 * driver that cannot start explained in every tab.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryCredentialStore, InMemoryModelsStore } from "@earendil-works/pi-ai";
import { ModelRuntime, SettingsManager } from "@earendil-works/pi-coding-agent";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPiDriver } from "../../src/live/drivers/pi.ts";
import {
  BROWSER_TEST_MS,
  buildWeb,
  DESKTOP,
  horizontalOverflow,
  inView,
  launchChromium,
  openPage,
  PHONE,
  shoot,
} from "./helpers/chromium.ts";
import { scriptedDriver, startServer, type TestServer } from "./helpers/live-server.ts";

const MARKDOWN = [
  "## Plan",
  "",
  "First **bold** and `inline code`.",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
  "| file | lines |",
  "| --- | --- |",
  "| a.ts | 12 |",
  "",
  "<img src=x onerror=alert(1)> [bad](javascript:alert(1)) [good](https://example.com/)",
].join("\n");
const lines = (n: number, what: string) => Array.from({ length: n }, (_, i) => `${what} ${i + 1}`).join("\n");

const script = {
  version: 1,
  model: "scripted-test",
  chunkSize: 40,
  chunkDelayMs: 0,
  turns: [
    {
      steps: [
        { type: "text", text: MARKDOWN },
        { type: "tool", name: "read", id: "read-1", input: { path: "src/big.ts" }, output: lines(300, "output line") },
        {
          type: "tool",
          name: "edit",
          id: "edit-1",
          permission: true,
          title: "Edit src/a.ts",
          input: { path: "src/a.ts", oldText: "const a = 1;\nconst b = 2;\n", newText: "const a = 1;\nconst b = 3;\n" },
          output: "edited",
        },
        {
          type: "tool",
          name: "write",
          id: "write-1",
          permission: true,
          input: { path: "notes/plan.md", content: `${lines(360, "- step")}\n` },
          output: "wrote",
        },
        { type: "text", text: "All done." },
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
  await browser?.close();
  await live?.close();
});

afterEach(async () => {
  await context?.close();
  await live.controller.clearSession("next test");
});

async function tab(first = true, viewport = DESKTOP): Promise<Page> {
  context ??= await browser.newContext({ viewport });
  const page = await openPage(context, first ? live.server.url : `${live.server.origin}/`);
  return page;
}

async function fresh(viewport = DESKTOP): Promise<Page> {
  context = await browser.newContext({ viewport });
  return tab(true, viewport);
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill("#message", text);
  await page.press("#message", "Enter");
  await page.waitForSelector(`.user >> text=${text}`);
}

const permission = (page: Page) => page.locator('.prompt[data-kind="tool_permission"]');

describe("live view", { timeout: BROWSER_TEST_MS }, () => {
  it("renders markdown as elements and never as raw HTML or an unsafe link", async () => {
    const page = await fresh();
    await send(page, "plan it");
    const reply = page.locator(".assistant").first();
    await reply.locator("h2", { hasText: "Plan" }).waitFor();
    expect(await reply.locator("strong").textContent()).toBe("bold");
    expect(await reply.locator("pre code").textContent()).toContain("const answer: number = 42;");
    expect(await reply.locator("pre code .hljs-keyword").count()).toBeGreaterThan(0);
    expect(await reply.locator("table td").allTextContents()).toEqual(["a.ts", "12"]);
    expect(await reply.locator("img").count()).toBe(0);
    expect(await reply.textContent()).toContain("<img src=x onerror=alert(1)>");
    expect(await reply.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await reply.locator('a[href="https://example.com/"]').getAttribute("rel")).toContain("noopener");
  });

  it("sums up each tool call in one line and folds long output behind Show all", async () => {
    const page = await fresh();
    await send(page, "read it");
    const card = page.locator(".tool", { hasText: "src/big.ts" });
    await card.locator('.badge[data-status="done"]').waitFor();
    expect(await card.locator(".tool-summary").textContent()).toBe("src/big.ts");
    await card.locator("summary").click();
    const output = card.locator(".output pre");
    expect((await output.textContent())?.split("\n")).toHaveLength(20);
    await card.getByRole("button", { name: "Show all 300 lines" }).click();
    expect((await output.textContent())?.split("\n")).toHaveLength(300);
  });

  it("shows an edit as a diff, in the prompt and in the card", async () => {
    const page = await fresh();
    await send(page, "edit it");
    const prompt = permission(page);
    await prompt.waitFor();
    expect(await prompt.locator(".prompt-summary").textContent()).toContain("src/a.ts · +1 −1");
    expect(await prompt.locator(".diff .line.del .text").allTextContents()).toEqual(["const b = 2;"]);
    expect(await prompt.locator(".diff .line.add .text").allTextContents()).toEqual(["const b = 3;"]);
    await prompt.locator("button.allow").click();
    const card = page.locator(".tool", { hasText: "src/a.ts" });
    await card.locator('.badge[data-status="done"]').waitFor();
    await card.locator("summary").click();
    expect(await card.locator(".diff .line.add .text").allTextContents()).toEqual(["const b = 3;"]);
  });

  it("keeps Allow in view for a 360-line write, at 375 and 1280 px, with no sideways scroll", async () => {
    const page = await fresh(PHONE);
    await send(page, "write it");
    await permission(page).locator("button.allow").click(); // the edit
    await permission(page).locator(".prompt-summary", { hasText: "notes/plan.md · 360 lines" }).waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await inView(page, '.prompt[data-kind="tool_permission"] button.allow')).toBe(true);
      expect(await inView(page, '.prompt[data-kind="tool_permission"] button.deny')).toBe(true);
      const panel = await page.locator(".prompts").boundingBox();
      expect(panel!.height).toBeLessThanOrEqual(size.height / 2 + 1);
      expect(await horizontalOverflow(page)).toBe(0);
      await shoot(page, "live-prompt");
    }
    await permission(page).locator("button.allow").click();
    await page.locator(".assistant", { hasText: "All done." }).waitFor();
    await shoot(page, "live");
  });

  it("fits a 375 px phone: no sideways scroll, every button in view", async () => {
    const page = await fresh(PHONE);
    await send(page, "phone");
    await permission(page).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    for (const button of ["#send", "#new-session", "#clear", "#interrupt", "nav a[data-nav=live]"]) {
      expect(await inView(page, button), button).toBe(true);
    }
    await shoot(page, "live-phone");
  });

  it("asks before a new session and tells the other tabs", async () => {
    const a = await fresh();
    const b = await tab(false);
    await send(a, "first");
    await b.waitForSelector(".user >> text=first");
    const epoch = live.controller.epoch;

    // Hidden tabs get no animation frames; the one being clicked is brought to the front like a user would.
    await a.bringToFront();
    await a.click("#new-session");
    await a.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(live.controller.epoch).toBe(epoch);

    await a.click("#new-session");
    await a.getByRole("dialog").getByRole("button", { name: "Start new session" }).click();
    await b.locator("#announcement", { hasText: "A new session was started in another tab." }).waitFor();
    await b.waitForSelector(".user", { state: "detached" });
    expect(await b.locator("#announcement a").getAttribute("href")).toMatch(/^\/s\//);
    expect(await a.locator("#announcement").count()).toBe(0);
    expect(live.controller.epoch).not.toBe(epoch);
  });

  it("notices a dead connection within 10 s and disables prompts until it is live again", async () => {
    const page = await fresh();
    await send(page, "go offline");
    const allow = permission(page).locator("button.allow");
    await allow.waitFor();
    expect(await allow.isEnabled()).toBe(true);
    await context.setOffline(true);
    await page.waitForSelector('#connection[data-state="offline"]', { timeout: 10_000 });
    expect(await allow.isDisabled()).toBe(true);
    expect(await page.locator("#send").isDisabled()).toBe(true);
    await context.setOffline(false);
    await page.waitForSelector('#connection[data-state="live"]', { timeout: 15_000 });
    await allow.click();
    await permission(page).locator(".prompt-summary", { hasText: "notes/plan.md" }).waitFor();
  });
});

describe("a driver that cannot start", { timeout: BROWSER_TEST_MS }, () => {
  let failing: TestServer;
  let root: string;

  beforeAll(async () => {
    process.env["PI_OFFLINE"] = "1";
    root = mkdtempSync(join(tmpdir(), "cairn-web-pi-"));
    mkdirSync(join(root, "work"));
    // A real pi with no credentials: what a user without a configured model gets.
    const modelRuntime = await ModelRuntime.create({
      credentials: new InMemoryCredentialStore(),
      modelsPath: null,
      modelsStore: new InMemoryModelsStore(),
      refreshOnCreate: false,
    });
    const driver = createPiDriver({
      cwd: join(root, "work"),
      agentDir: join(root, "agent"),
      modelRuntime,
      settingsManager: SettingsManager.inMemory({}),
      resourceLoaderOptions: { noExtensions: true, noSkills: true, noPromptTemplates: true, noContextFiles: true },
    });
    failing = await startServer(driver);
  });

  afterAll(async () => {
    await failing?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("explains it in every tab, with advice that fits a browser", async () => {
    context = await browser.newContext();
    const a = await openPage(context, failing.server.url);
    const b = await openPage(context, `${failing.server.origin}/`);
    await a.fill("#message", "hello");
    await a.press("#message", "Enter");
    for (const page of [a, b]) {
      const notice = page.locator(".notice", { hasText: "The agent could not start" });
      await notice.waitFor();
      const text = (await notice.textContent()) ?? "";
      expect(text).toContain("--provider");
      expect(text).not.toContain("/login");
      expect(text).not.toContain(root);
    }
  });
});
