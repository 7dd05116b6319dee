/**
 * "Continue live" on a pi session's timeline, end to end: a real pi session (pi's faux provider as the model)
 * is saved, indexed, shown in the history, and continued from its timeline in the same conversation.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fauxAssistantMessage,
  fauxProvider,
  InMemoryCredentialStore,
  InMemoryModelsStore,
} from "@earendil-works/pi-ai";
import { ModelRuntime, SettingsManager } from "@earendil-works/pi-coding-agent";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCairn, type ReadCairn } from "../../src/app/cairn.ts";
import { createPiDriver, piSessionDir } from "../../src/live/drivers/pi.ts";
import { BROWSER_TEST_MS, buildWeb, DESKTOP, launchChromium, openPage } from "./helpers/chromium.ts";
import { startServer, type TestServer } from "./helpers/live-server.ts";

let root: string;
let browser: Browser;
let live: TestServer;
let history: ReadCairn;
let sessionId: string;

/** The faux model answers with the user messages it has seen, so a continued conversation shows its past. */
const seen = (context: { messages: Array<{ role: string; content?: unknown }> }) =>
  fauxAssistantMessage(
    `users so far: ${context.messages
      .filter((m) => m.role === "user")
      .map((m) =>
        Array.isArray(m.content) ? (m.content as Array<{ text?: string }>).map((b) => b.text).join("") : m.content,
      )
      .join(", ")}`,
  );

beforeAll(async () => {
  process.env["PI_OFFLINE"] = "1";
  buildWeb();
  root = mkdtempSync(join(tmpdir(), "cairn-web-continue-"));
  const cwd = join(root, "work");
  const agentDir = join(root, "agent");
  mkdirSync(cwd);
  const faux = fauxProvider({ provider: "faux" });
  faux.setResponses([seen, seen, seen]);
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    modelsStore: new InMemoryModelsStore(),
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const driver = createPiDriver({
    cwd,
    agentDir,
    modelRuntime,
    model: faux.getModel(),
    tools: ["read"],
    settingsManager: SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } }),
    resourceLoaderOptions: { noExtensions: true, noSkills: true, noPromptTemplates: true, noContextFiles: true },
  });
  live = await startServer(driver);
  await (await live.controller.sendMessage({ text: "first" })).done;
  sessionId = live.controller.getState().sessionId!;
  await live.controller.clearSession("saved");

  const db = join(root, "cairn.db");
  const env = { HOME: root };
  const writer = createCairn({ db, env, cwd: root, mode: "write" });
  await writer.index({ roots: [piSessionDir(agentDir, cwd)], embed: false, parallel: false });
  writer.close();
  history = createCairn({ db, env, cwd: root });
  await live.close();
  live = await startServer(driver, { history });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await live?.close();
  history?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("continue live", { timeout: BROWSER_TEST_MS }, () => {
  it("reopens a saved pi session from its timeline and goes on in the same conversation", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await openPage(context, live.server.url);
    await page.goto(`${live.server.origin}/s/${sessionId}`);
    await page.locator(".timeline .row", { hasText: "first" }).first().waitFor();
    const button = page.locator("#continue-live");
    await page.locator("#continue-live:enabled").waitFor();
    await button.click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.waitForSelector("#session >> text=pi");
    expect(live.controller.getState().sessionId).toBe(sessionId);

    await page.fill("#message", "second");
    await page.press("#message", "Enter");
    await page.locator(".assistant", { hasText: "users so far: first, second" }).waitFor();
    await context.close();
  });
});
