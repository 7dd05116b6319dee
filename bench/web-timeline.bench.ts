/**
 * Issue 18: a 10,000-event session's timeline in Debian's Chromium. Opens `/s/ID`, then scrolls the list from
 * the first row to the last (the page fetches windows of rows as it goes) and jumps back and forth, while a
 * PerformanceObserver records every long task (main thread busy > 50 ms). Printed beside the same steps on a
 * session of about 500 events from the same run. Goal: no long task over 100 ms.
 */
import { mkdirSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createCairn } from "../src/app/cairn.ts";
import { createLiveController } from "../src/live/controller.ts";
import { createScriptedDriver } from "../src/live/drivers/scripted.ts";
import { startLiveServer } from "../src/live/server/listen.ts";
import { findWebRoot } from "../src/live/server/web-root.ts";
import { buildWeb, launchChromium } from "../test/web/helpers/chromium.ts";
import { generateCorpus } from "./corpus.ts";

const base = join(process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench"), "web-timeline");
mkdirSync(base, { recursive: true });

/** Writes and indexes one session of at least `events` events; returns its id and size. */
async function session(name: string, events: number): Promise<{ db: string; id: string; events: number }> {
  let bytes = 400_000;
  for (let attempt = 0; attempt < 6; attempt++) {
    const dir = join(base, `${name}-${bytes}`);
    const db = join(base, `${name}-${bytes}.db`);
    for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });
    generateCorpus(dir, [bytes], `web-timeline-${name}`);
    const writer = createCairn({ db, env: {}, mode: "write" });
    await writer.index({ roots: [dir], embed: false, parallel: false });
    writer.close();
    const app = createCairn({ db, env: {} });
    const s = app.sessions({ limit: 5, all: true }).sort((a, b) => b.event_count - a.event_count)[0]!;
    app.close();
    if (s.event_count >= events) return { db, id: s.session_id, events: s.event_count };
    bytes = Math.ceil((bytes * events * 1.15) / Math.max(1, s.event_count));
  }
  throw new Error(`could not make a session of ${events} events`);
}

interface Run {
  events: number;
  firstRowsMs: number;
  rows: number;
  scrollMs: number;
  frames: number;
  longTasks: number[];
}

async function measure(page: Page, origin: string, s: { id: string; events: number }): Promise<Run> {
  await page.goto(`${origin}/sessions`);
  await page.evaluate(`window.__longtasks.length = 0`);
  const t0 = Date.now();
  await page.goto(`${origin}/s/${s.id}`);
  await page.locator(".timeline .row").first().waitFor();
  const firstRowsMs = Date.now() - t0;
  const started = Date.now();
  // Scroll down a screenful per frame until the last row of the session is in the list and in view.
  const frames = (await page.locator(".timeline-box").evaluate(async (box) => {
    const win = box.ownerDocument.defaultView!;
    const frame = () => new Promise((r) => win.requestAnimationFrame(r));
    let n = 0;
    let still = 0;
    while (still < 30 && n < 20_000) {
      const before = box.scrollHeight;
      box.scrollTop += box.clientHeight;
      await frame();
      n++;
      const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
      still = atEnd && box.scrollHeight === before ? still + 1 : 0;
    }
    // Then jump around: the top, the middle, the end, twenty times.
    for (let i = 0; i < 20; i++) {
      box.scrollTop = [0, box.scrollHeight / 2, box.scrollHeight][i % 3]!;
      await frame();
      await frame();
      n += 2;
    }
    return n;
  })) as number;
  const scrollMs = Date.now() - started;
  const rows = Number(await page.locator(".timeline .timeline-item").last().getAttribute("data-index")) + 1;
  const longTasks = (await page.evaluate(`window.__longtasks.slice()`)) as number[];
  return { events: s.events, firstRowsMs, rows, scrollMs, frames, longTasks };
}

function report(label: string, r: Run): void {
  const sorted = [...r.longTasks].sort((a, b) => b - a);
  console.log(
    `${label}: ${r.events} events, ${r.rows} rows; first rows in ${r.firstRowsMs} ms; scrolled end to end and jumped ` +
      `in ${r.frames} frames / ${(r.scrollMs / 1000).toFixed(1)} s; long tasks: ${r.longTasks.length} ` +
      `(longest ${sorted[0]?.toFixed(0) ?? 0} ms, over 100 ms: ${sorted.filter((d) => d > 100).length})`,
  );
}

buildWeb();
const big = await session("big", 10_000);
const small = await session("small", 500);
const browser = await launchChromium();
const runs: [string, Run][] = [];
for (const [label, s] of [
  ["baseline, ~500 events", small],
  ["10k-event timeline", big],
] as const) {
  const history = createCairn({ db: s.db, env: {} });
  const controller = createLiveController({
    driver: createScriptedDriver({ script: { version: 1, turns: [{ steps: [] }] }, cwd: tmpdir() }),
  });
  const server = await startLiveServer({ controller, webRoot: findWebRoot(), history });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    const w = globalThis as unknown as { __longtasks: number[]; PerformanceObserver: typeof PerformanceObserver };
    w.__longtasks = [];
    new w.PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longtasks.push(e.duration);
    }).observe({ type: "longtask" as never, buffered: true });
  });
  const page = await context.newPage();
  await page.goto(server.url);
  runs.push([label, await measure(page, server.origin, s)]);
  await context.close();
  await server.close();
  await controller.dispose();
  history.close();
}
await browser.close();
for (const [label, r] of runs) report(label, r);
// Long tasks are wall time: on a machine busy with other work, the page's main thread waits its turn too.
console.log(
  `machine: ${availableParallelism()} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log("goal: no long task over 100 ms while rendering and scrolling the 10k-event timeline");
