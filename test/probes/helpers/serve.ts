/**
 * The built `cairn serve` as a user starts it (a scripted live session, so no model is needed), on an index, and
 * what the probes ask of it: the history API with the printed token, and Chromium logged in through the printed
 * URL. The server is stopped by its own process id.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLI } from "../../helpers/cli.ts";
import { REPO } from "../../helpers/transcripts.ts";
import { DESKTOP, launchChromium } from "../../web/helpers/chromium.ts";
import type { ProbeIndex } from "./index.ts";

export interface Served {
  origin: string;
  /** The URL `cairn serve` printed, with its token. */
  url: string;
  token: string;
  /** GET (or POST with a JSON body) on the server, authenticated as the page is. */
  api(path: string, body?: unknown): Promise<{ status: number; text: string }>;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startServe(index: ProbeIndex, env: Record<string, string> = {}): Promise<Served> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, "serve", "--driver", "scripted", "--script", join(REPO, "examples/live-demo.json"), "--port", "0"],
    { cwd: index.dir, env: { ...process.env, ...index.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      stdout += c.toString();
      const m = /Open (http:\/\/\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`cairn serve exited with ${code}: ${stderr}`)));
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get("token")!;
  const origin = parsed.origin;
  return {
    origin,
    url,
    token,
    async api(path, body) {
      const res = await fetch(`${origin}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json", origin }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, text: await res.text() };
    },
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface Browsing {
  browser: Browser;
  context: BrowserContext;
  /**
   * Opens a path of the page and waits until its view has loaded (or failed), collecting page errors; `ready`, a
   * selector, waits for more (a search's answer).
   */
  open(path: string, ready?: string): Promise<Page>;
  /** Uncaught errors in any page opened, with the path they happened on. */
  errors: string[];
  close(): Promise<void>;
}

/** Chromium logged in to a served page (the printed URL sets the cookie). */
export async function browse(served: Served): Promise<Browsing> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: DESKTOP });
  const login = await context.newPage();
  await login.goto(served.url);
  await login.close();
  const errors: string[] = [];
  return {
    browser,
    context,
    errors,
    async open(path, ready) {
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(`${path}: ${error.message}`));
      await page.goto(`${served.origin}${path}`);
      if (ready) await page.locator(ready).first().waitFor({ timeout: 20_000 });
      await settled(page);
      return page;
    },
    async close() {
      await context.close();
      await browser.close();
    },
  };
}

/**
 * Waits until the view has what it loads: a page body that nothing marks busy, holding content or saying why not
 * (an empty state or a failure). A view that crashed never settles, and the wait's timeout names the path.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(viewReady, false, { timeout: 20_000 });
}

/** What a person can read on the page, and the HTML behind it (attributes, hidden text, titles). */
export async function pageText(page: Page): Promise<{ text: string; html: string }> {
  // innerText, not textContent: the text as laid out for a reader, without what CSS hides.
  // biome-ignore lint/performance/useDomNodeTextContent: what a person reads is the point
  return { text: await page.locator("body").innerText(), html: await page.content() };
}

/** A search view that has its answer: the hit count, or the error it got. */
export const SEARCH_ANSWERED = '#search-status:text-matches("hits? in [0-9]+ ms"), #search-status .bad';

/**
 * Moves an open page to another view as its own links do (history and the router's popstate), and waits until the
 * new view has loaded or failed: much faster than loading the page again, for probes that visit hundreds of views.
 * The views on screen before are marked, so the wait is for a view mounted after the move.
 */
export async function moveTo(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const g = globalThis as unknown as PageGlobals;
    for (const el of g.document.querySelectorAll("#view .page, #view .empty")) el.setAttribute("data-probe-old", "");
    g.history.pushState(null, "", to);
    g.dispatchEvent(new g.PopStateEvent("popstate"));
  }, path);
  await page.waitForFunction(viewReady, true, { timeout: 20_000 });
}

/** What the page functions above use of the browser (this project's TypeScript has no DOM library). */
interface PageElement {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  setAttribute(name: string, value: string): void;
  textContent: string | null;
}
interface PageGlobals {
  document: PageElement;
  history: { pushState(state: unknown, title: string, url: string): void };
  dispatchEvent(event: unknown): void;
  PopStateEvent: new (type: string) => unknown;
}

/**
 * Runs in the page: whether the view shows what it loaded (or why not), nothing in it busy; with `fresh`, only a
 * view mounted after `moveTo` marked the old ones counts. (A function, not a string: the page's CSP forbids eval.)
 */
function viewReady(fresh: boolean): boolean {
  const g = globalThis as unknown as PageGlobals;
  const view = g.document.querySelector("#view") ?? g.document.querySelector("body");
  if (!view) return false;
  const selector = fresh ? ".page:not([data-probe-old]), .empty:not([data-probe-old])" : ".page, .empty";
  if (!view.querySelector(selector)) return false;
  if (view.querySelector('[aria-busy="true"]')) return false;
  return (view.textContent ?? "").trim().length > 0;
}
