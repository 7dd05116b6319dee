/**
 * Debian's Chromium driven by playwright-core (no downloaded browser), the built page (`scripts/build-web.ts`)
 * and screenshots a person can look at: every `shoot` writes `<name>-<width>.png` to the folder the README's
 * development section names (`.screenshots/`, or `$CAIRN_SCREENSHOTS`).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
export const SCREENSHOTS = process.env["CAIRN_SCREENSHOTS"] ?? join(ROOT, ".screenshots");

let built = false;
/** Builds the page once per test process. */
export function buildWeb(): void {
  if (built) return;
  execFileSync(process.execPath, [join(ROOT, "scripts/build-web.ts")], { stdio: "inherit" });
  built = true;
}

export function launchChromium(): Promise<Browser> {
  // launch() gives Chromium a fresh temporary user-data-dir of its own, removed on close.
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const PHONE = { width: 375, height: 667 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * A browser test visits several pages and takes screenshots at two widths: seconds on an idle machine, but the
 * whole suite shares two cores with Chromium's own processes, so a test gets more than vitest's default before it
 * counts as hung. Each step still waits on a condition, never on time.
 */
export const BROWSER_TEST_MS = 120_000;

/** A page that fails its test on any uncaught error in the page. */
export async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  return page;
}

/** Opens the printed URL (the token becomes a cookie) or any view's path, and waits for the live connection. */
export async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await newPage(context);
  await page.goto(url);
  await page.waitForSelector('#connection[data-state="live"]');
  return page;
}

export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: false });
}

/** Shoots the page at phone and desktop widths, checking at each that nothing scrolls sideways. */
export async function shootBoth(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  const before = page.viewportSize() ?? DESKTOP;
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await ready();
    expect(await horizontalOverflow(page)).toBe(0);
    await shoot(page, name);
  }
  await page.setViewportSize(before);
}

/** How many pixels the document is wider than the window (0 when nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.locator("html").evaluate((html) => html.scrollWidth - html.clientWidth);
}

/**
 * True when the element can be seen and clicked where it is: its whole box lies inside the window and inside
 * every scrolling box around it, and nothing covers its centre.
 */
export function inView(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const doc = el.ownerDocument;
      const win = doc.defaultView!;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      const inside = (outer: { left: number; top: number; right: number; bottom: number }): boolean =>
        box.left >= outer.left - 0.5 &&
        box.top >= outer.top - 0.5 &&
        box.right <= outer.right + 0.5 &&
        box.bottom <= outer.bottom + 0.5;
      if (!inside({ left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight })) return false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = win.getComputedStyle(p);
        if (style.overflowX !== "visible" || style.overflowY !== "visible") {
          if (!inside(p.getBoundingClientRect())) return false;
        }
      }
      const hit = doc.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    });
}
