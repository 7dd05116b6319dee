/**
 * The viewport page in Debian's Chromium (playwright-core, no downloaded browser) against a real server on
 * the scripted driver: two tabs stay in step, a prompt answered in one disappears from the other, a reload in
 * the middle of a stream restores text and open prompts, and a dropped connection catches up without losing
 * or duplicating text.
 */
import { tmpdir } from "node:os";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import { parseScript } from "../../src/live/drivers/script-format.ts";
import { createScriptedDriver } from "../../src/live/drivers/scripted.ts";
import { type LiveServerHandle, startLiveServer } from "../../src/live/server/listen.ts";
import { findWebRoot } from "../../src/live/server/web-root.ts";
import { buildWeb, launchChromium, openPage } from "../web/helpers/chromium.ts";

const LINES = Array.from({ length: 24 }, (_, i) => `Line ${String(i + 1).padStart(2, "0")} of the answer.`).join("\n");
const AFTER = "Done after the tool.";
const script = parseScript(
  JSON.stringify({
    version: 1,
    turns: [
      {
        steps: [
          { type: "text", text: LINES, chunkSize: 3, chunkDelayMs: 8 },
          {
            type: "tool",
            name: "bash",
            id: "tool-1",
            permission: true,
            input: { command: "echo '<img src=x onerror=alert(1)>'" },
            output: "<b>not bold</b>",
          },
          { type: "text", text: AFTER, chunkDelayMs: 0 },
        ],
      },
    ],
  }),
);

let browser: Browser;
let context: BrowserContext;
let server: LiveServerHandle;
let controller: LiveController;

beforeAll(async () => {
  if (!script.ok) throw new Error(script.error);
  buildWeb();
  controller = createLiveController({ driver: createScriptedDriver({ script: script.script, cwd: tmpdir() }) });
  server = await startLiveServer({ controller, webRoot: findWebRoot() });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await controller?.dispose();
});

afterEach(async () => {
  await context?.close();
  await controller.clearSession("next test");
});

/** A tab that opened the printed URL once (the token becomes a cookie) and shows a live connection. */
async function openTab(first: boolean): Promise<Page> {
  const page = await openPage(context, first ? server.url : `${server.origin}/`);
  expect(page.url()).toBe(`${server.origin}/`);
  return page;
}

async function freshContext(): Promise<void> {
  context = await browser.newContext();
}

const assistantTexts = async (page: Page) =>
  (await page.locator(".assistant").allTextContents()).map((text) => text.trim());
const promptCard = (page: Page) => page.locator('.prompt[data-kind="tool_permission"]');

async function sendMessage(page: Page, text: string): Promise<void> {
  await page.fill("#message", text);
  await page.press("#message", "Enter");
  await page.waitForSelector(`.user >> text=${text}`);
}

describe("viewport page in Chromium", () => {
  it("keeps two tabs in step; a prompt answered in one disappears from the other", async () => {
    await freshContext();
    const a = await openTab(true);
    const b = await openTab(false);
    await sendMessage(a, "list the files");
    await b.waitForSelector(".user >> text=list the files");

    await promptCard(a).waitFor();
    await promptCard(b).waitFor();
    for (const page of [a, b]) {
      expect(await promptCard(page).locator("button").allTextContents()).toEqual(["Deny", "Allow"]);
      // Untrusted text is shown as text, never parsed as markup.
      expect(await promptCard(page).locator(".prompt-input").textContent()).toContain("<img src=x onerror=alert(1)>");
      expect(await page.locator("main img, #prompts img").count()).toBe(0);
    }
    expect(await a.locator("#interrupt").isEnabled()).toBe(true);

    await b.click('.prompt[data-kind="tool_permission"] button.allow');
    await promptCard(a).waitFor({ state: "detached" });
    await promptCard(b).waitFor({ state: "detached" });
    for (const page of [a, b]) {
      await page.waitForSelector(`.assistant >> text=${AFTER}`);
      expect(await assistantTexts(page)).toEqual([LINES, AFTER]);
      expect(await page.locator(".tool .output").textContent()).toBe("<b>not bold</b>");
      expect(await page.locator(".tool").getAttribute("data-status")).toBe("done");
      expect(await page.locator(".tool b").count()).toBe(0);
    }
  });

  it("restores streamed text and the open prompt after a reload mid-stream", async () => {
    await freshContext();
    const page = await openTab(true);
    await sendMessage(page, "reload me");
    await page.waitForSelector(".assistant >> text=Line 03");
    await page.reload();
    await page.waitForSelector('#connection[data-state="live"]');
    // Text from before the reload is back and keeps streaming to the end, once.
    await page.waitForSelector(".user >> text=reload me");
    await promptCard(page).waitFor();
    expect(await assistantTexts(page)).toEqual([LINES]);

    await page.reload();
    await page.waitForSelector('#connection[data-state="live"]');
    await promptCard(page).waitFor();
    expect(await assistantTexts(page)).toEqual([LINES]);
    await page.click('.prompt[data-kind="tool_permission"] button.deny');
    await page.waitForSelector(`.assistant >> text=${AFTER}`);
    expect(await page.locator(".tool").getAttribute("data-status")).toBe("error");
    expect(await page.locator(".tool .output").textContent()).toBe("denied by the user");
  });

  it("reconnects after a dropped connection without losing or duplicating text", async () => {
    await freshContext();
    const page = await openTab(true);
    await sendMessage(page, "drop me");
    await page.waitForSelector(".assistant >> text=Line 04");
    server.app.disconnectAll(1012, "server restart");
    await page.waitForSelector('#connection[data-state="reconnecting"]');
    await page.waitForSelector('#connection[data-state="live"]');
    await page.waitForSelector(".assistant >> text=Line 10");
    server.app.disconnectAll(1012, "server restart");
    await promptCard(page).waitFor();
    expect(await assistantTexts(page)).toEqual([LINES]);
    await page.click('.prompt[data-kind="tool_permission"] button.allow');
    await page.waitForSelector(`.assistant >> text=${AFTER}`);
    expect(await assistantTexts(page)).toEqual([LINES, AFTER]);
  });

  it("interrupts, clears and starts a new session from the buttons", async () => {
    await freshContext();
    const page = await openTab(true);
    await sendMessage(page, "stop me");
    await promptCard(page).waitFor();
    await page.click("#interrupt");
    await promptCard(page).waitFor({ state: "detached" });
    await page.waitForSelector('.assistant[data-status="completed"]');
    await page.waitForSelector('.live[data-streaming="false"]');

    const before = controller.epoch;
    await page.click("#clear");
    await page.click("dialog.confirm button.primary");
    await page.waitForSelector(".user", { state: "detached" });
    expect(controller.epoch).not.toBe(before);

    await page.click("#new-session");
    await page.click("dialog.confirm button.primary");
    await page.waitForSelector("#session >> text=scripted");
  });
});
