/**
 * Issue 19: the terminal UI's keystroke-to-frame latency while searching as you type, on the million-event index
 * (the one `npm run bench -- web-search` builds), and its memory with a 10,000-event timeline open. The UI runs
 * in-process on pi-tui's alternate screen over a virtual terminal: a key goes in where the terminal's input
 * would, and the time is taken when pi-tui writes the frame that shows the answer to the query that key made.
 * Keys are typed one at a time, each after the last one's answer; then again as a fast typist types, each key as
 * soon as the last is drawn, so keys land while searches run in the UI's search thread. Goal: p95 ≤ 50 ms.
 * It times the built UI in `dist/` (run `npm run build` after changing the sources when running this file alone).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Terminal } from "@earendil-works/pi-tui";
import type { ReadCairn } from "../src/app/cairn.ts";
import type { Browser } from "../src/tui/browser.ts";
import { generateCorpus } from "./corpus.ts";

// The UI as users run it: the built JavaScript (`npm run bench` builds it first). From the TypeScript sources the
// search thread's worker is stripped of its types as it starts, which took 0.7–1.9 s and made the first keys wait.
const built = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;
const { createCairn } = (await import(built("app/cairn.js"))) as typeof import("../src/app/cairn.ts");
const { runTui } = (await import(built("tui/run.js"))) as typeof import("../src/tui/run.ts");

const root = process.env["CAIRN_BENCH_DIR"] ?? join(tmpdir(), "cairn-bench");
const million = join(root, "web-search", "index-1000000.db");

/** A terminal of a fixed size that keeps nothing but tells who waits when a frame is written. */
class VirtualTerminal implements Terminal {
  onWrite: (() => void) | null = null;
  input: (data: string) => void = () => {};
  writes = 0;
  readonly columns: number;
  readonly rows: number;
  constructor(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
  }
  start(onInput: (data: string) => void): void {
    this.input = onInput;
  }
  stop(): void {}
  async drainInput(): Promise<void> {}
  write(): void {
    this.writes++;
    this.onWrite?.();
  }
  get kittyProtocolActive(): boolean {
    return false;
  }
  moveBy(): void {}
  hideCursor(): void {}
  showCursor(): void {}
  clearLine(): void {}
  clearFromCursor(): void {}
  clearScreen(): void {}
  setTitle(): void {}
  setProgramStatus(): void {}
  setProgress(): void {}
}

interface Ui {
  terminal: VirtualTerminal;
  browser: () => Browser;
  quit: () => void;
  done: Promise<unknown>;
}

function open(app: ReadCairn): Ui {
  const terminal = new VirtualTerminal(120, 40);
  const controller = new AbortController();
  let browser: Browser | null = null;
  const done = runTui({
    app,
    color: true,
    cwd: tmpdir(),
    env: {},
    signal: controller.signal,
    terminal,
    pollMs: 60_000,
    onBrowser: (b) => {
      browser = b;
    },
  });
  return { terminal, browser: () => browser!, quit: () => controller.abort(), done };
}

/**
 * Types `key`; resolves with the time to the first frame written after it (the typed text shown) and to the frame
 * that shows the answer to the query it made.
 */
function keyToFrame(ui: Ui, key: string): Promise<{ echo: number; answer: number; query: string; search: number }> {
  return new Promise((resolve) => {
    let expected: string | null = null;
    let echo: number | null = null;
    const started = performance.now();
    ui.terminal.onWrite = () => {
      if (expected === null) return;
      echo ??= performance.now() - started;
      if (ui.browser().results?.query !== expected) return;
      ui.terminal.onWrite = null;
      resolve({ echo, answer: performance.now() - started, query: expected, search: ui.browser().results?.ms ?? 0 });
    };
    ui.terminal.input(key);
    expected = ui.browser().query();
  });
}

/** The next frame pi-tui writes. */
function nextFrame(ui: Ui): Promise<void> {
  return new Promise((resolve) => {
    ui.terminal.onWrite = () => {
      ui.terminal.onWrite = null;
      resolve();
    };
  });
}

/** The first frame that shows the answer to the latest text, with no search left to run. */
function answered(ui: Ui): Promise<void> {
  return new Promise((resolve) => {
    const ready = () => ui.browser().results?.query === ui.browser().query() && !ui.browser().searching;
    if (ready()) return resolve();
    ui.terminal.onWrite = () => {
      if (!ready()) return;
      ui.terminal.onWrite = null;
      resolve();
    };
  });
}

/**
 * Types `text` as a fast typist would, each key as soon as the last one is drawn, never waiting for answers:
 * the keys land while searches run. Returns each key's time to its frame, and the time from the last key to the
 * frame with the answer to the whole text.
 */
async function typeAhead(ui: Ui, text: string): Promise<{ echoes: number[]; answer: number }> {
  const echoes: number[] = [];
  let last = 0;
  for (const key of text) {
    const frame = nextFrame(ui);
    last = performance.now();
    ui.terminal.input(key);
    await frame;
    echoes.push(performance.now() - last);
  }
  await answered(ui);
  return { echoes, answer: performance.now() - last };
}

const QUERIES = ["error: TS2554", "test:fail", "theme selector", "file:theme.ts", "tool:Bash git", "wrapAnsi"];
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (times: number[], what: string) => {
  const s = [...times].sort((a, b) => a - b);
  return `${s.length} ${what}, p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms`;
};

async function typing(): Promise<void> {
  if (!existsSync(million)) {
    console.log(`search as you type: skipped, ${million} is missing (build it with: npm run bench -- web-search)`);
    return;
  }
  const app = createCairn({ db: million, env: {} });
  const events = app.reader().counts().events;
  console.log(
    `machine: load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${cpus().length} cores`,
  );
  const ui = open(app);
  // Someone opening the UI reads the screen a moment before typing; 0 types the first key at once.
  const pause = Number(process.env["CAIRN_BENCH_TUI_PAUSE"] ?? 1500);
  await new Promise((r) => setTimeout(r, pause));
  const frames: number[] = [];
  const echoes: number[] = [];
  const slowest: Array<{ prefix: string; ms: number; search: number }> = [];
  const direct: number[] = [];
  ui.terminal.input("/");
  for (const q of QUERIES) {
    for (const key of q) {
      const t = await keyToFrame(ui, key);
      echoes.push(t.echo);
      frames.push(t.answer);
      slowest.push({ prefix: t.query, ms: t.answer, search: t.search });
    }
    // Clear the field (Ctrl-U) for the next query; its empty answer is not timed.
    ui.terminal.input("\x15");
    await new Promise((r) => setTimeout(r, 0));
    const t = performance.now();
    await app.search({ query: q, limit: 50 });
    direct.push(performance.now() - t);
  }
  ui.quit();
  await ui.done;
  app.close();
  console.log(`index: ${million} (${events} events); the first key typed ${pause} ms after the UI opened`);
  const keys = [...slowest];
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`keystroke to the frame with its answer: ${summary(frames, "keys")}`);
  console.log(
    `  slowest: ${slowest
      .slice(0, 5)
      .map((x) => `${JSON.stringify(x.prefix)} ${x.ms.toFixed(0)} ms`)
      .join(", ")}`,
  );
  if (process.env["CAIRN_BENCH_TUI_KEYS"])
    console.log(
      `  every key: ${keys.map((x) => `${JSON.stringify(x.prefix)} ${x.ms.toFixed(0)}/${x.search.toFixed(0)}`).join(", ")}`,
    );
  console.log(`keystroke to the frame showing the typed text: ${summary(echoes, "keys")}`);
  console.log(`baseline, app.search in-process (the whole queries): ${summary(direct, "queries")}`);
  console.log("goal: keystroke to frame p95 ≤ 50 ms");
  await typingAhead(app);
}

/** Keys typed without waiting for answers, so most land while a search runs in the search thread. */
async function typingAhead(app: ReadCairn): Promise<void> {
  const ui = open(app);
  const echoes: number[] = [];
  const answers: Array<{ query: string; ms: number }> = [];
  ui.terminal.input("/");
  for (const q of QUERIES) {
    const t = await typeAhead(ui, q);
    echoes.push(...t.echoes);
    answers.push({ query: q, ms: t.answer });
    ui.terminal.input("\x15");
    await answered(ui);
  }
  ui.quit();
  await ui.done;
  app.close();
  console.log(`typing ahead (each key when the last is drawn, searches running meanwhile):`);
  console.log(`  keystroke to the frame showing the typed text: ${summary(echoes, "keys")}`);
  console.log(
    `  last key to the frame with the whole query's answer: ${summary(
      answers.map((a) => a.ms),
      "queries",
    )}; ${answers.map((a) => `${JSON.stringify(a.query)} ${a.ms.toFixed(0)} ms`).join(", ")}`,
  );
}

/** A session of at least 10,000 events: web-timeline's if that bench made one, else one made here. */
async function bigSession(): Promise<{ db: string; id: string; events: number }> {
  const candidates = [join(root, "web-timeline"), join(root, "tui")];
  for (const dir of candidates) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((n) => n.startsWith("big-") && n.endsWith(".db"))) {
      const app = createCairn({ db: join(dir, f), env: {} });
      let s: ReturnType<ReadCairn["sessions"]>[number] | undefined;
      try {
        s = app.sessions({ limit: 5, all: true }).sort((a, b) => b.event_count - a.event_count)[0];
      } catch {
        // An index of an older cairn: not ours to upgrade.
      } finally {
        app.close();
      }
      if (s && s.event_count >= 10_000) return { db: join(dir, f), id: s.session_id, events: s.event_count };
    }
  }
  const base = join(root, "tui");
  mkdirSync(base, { recursive: true });
  let bytes = 8_000_000;
  for (let attempt = 0; attempt < 4; attempt++) {
    const db = join(base, `big-${bytes}.db`);
    for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });
    const dir = join(base, `big-${bytes}`);
    generateCorpus(dir, [bytes], "tui-big");
    const writer = createCairn({ db, env: {}, mode: "write" });
    await writer.index({ roots: [dir], embed: false, parallel: false });
    writer.close();
    const app = createCairn({ db, env: {} });
    const s = app.sessions({ limit: 5, all: true }).sort((a, b) => b.event_count - a.event_count)[0]!;
    app.close();
    if (s.event_count >= 10_000) return { db, id: s.session_id, events: s.event_count };
    bytes = Math.ceil((bytes * 10_000 * 1.15) / Math.max(1, s.event_count));
  }
  throw new Error("could not make a session of 10,000 events");
}

/**
 * The process's anonymous resident memory (its heaps), from Linux's /proc, or null elsewhere. RSS also counts the
 * pages of the index file a read-only handle maps: the OS's cache, shared and given back under pressure.
 */
function anonymous(): number | null {
  try {
    const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

async function memory(): Promise<void> {
  const big = await bigSession();
  const app = createCairn({ db: big.db, env: {} });
  const ui = open(app);
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const anonBefore = anonymous();
  const started = performance.now();
  ui.browser().openSession(big.id);
  ui.browser().handleInput("G");
  await new Promise((r) => setTimeout(r, 50));
  const openMs = performance.now() - started;
  globalThis.gc?.();
  const after = process.memoryUsage().rss;
  const anonAfter = anonymous();
  const rows = ui.browser().timeline.length;
  // Page up to the session's first row, reading every stretch on the way, as someone scrolling back would.
  const pages: number[] = [];
  const b = ui.browser();
  for (let i = 0; i < 5000 && (b.view?.earlier || b.cursors.timeline.index > 0); i++) {
    const t = performance.now();
    b.handleInput("\x1b[5~");
    pages.push(performance.now() - t);
  }
  globalThis.gc?.();
  const scrolled = process.memoryUsage().rss;
  const anonScrolled = anonymous();
  const all = b.timeline.length;
  ui.quit();
  await ui.done;
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t = performance.now();
  const kept = app.timeline({ session: big.id }).rows;
  const whole = { ms: performance.now() - t, rss: process.memoryUsage().rss - rssBefore, rows: kept.length };
  app.close();
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const anon = (n: number | null) => (n === null ? "" : ` (anonymous ${mb(n)})`);
  console.log(
    `timeline of ${big.events} events (${rows} rows) open: RSS ${mb(after)}${anon(anonAfter)}, ${mb(before)}${anon(anonBefore)} before it opened (+${mb(after - before)}); opened and drawn in ${openMs.toFixed(0)} ms`,
  );
  console.log(
    `paged up to its first row: ${pages.length} PgUp, ${summary(pages, "pages")}; ${all} rows read, RSS ${mb(scrolled)}${anon(anonScrolled)}`,
  );
  console.log(
    `baseline, the whole timeline read at once (as before it read in stretches): ${whole.ms.toFixed(0)} ms, +${mb(whole.rss)}`,
  );
}

// CAIRN_BENCH_TUI=memory (or typing) runs one part.
const parts = (process.env["CAIRN_BENCH_TUI"] ?? "typing,memory").split(",");
if (parts.includes("typing")) await typing();
if (parts.includes("memory")) await memory();
