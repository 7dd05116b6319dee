/**
 * Search runs beside the UI, not on its thread: with the search held (CAIRN_TUI_SEARCH_HOLD names a file every
 * search waits for, synchronously, as a slow SQLite query waits), typed keys are still drawn, the field can be
 * left and the list moved, and Ctrl-C quits. Were the search on the UI's thread, the held search would hold the
 * screen too and each wait below would time out.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { startCairnTui, type TuiRun } from "./tui-tmux.ts";

let index: TempIndex;
let run: TuiRun | undefined;
let scratch: string | undefined;

beforeAll(() => {
  index = tempIndex("cairn-tui-typing-", [realFixturesDir()]);
});
afterAll(() => index?.remove());
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function start(opts: { width?: number; height?: number } = {}): { r: TuiRun; release: () => void } {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-typing-"));
  const hold = join(scratch, "release-the-search");
  run = startCairnTui({ dir: scratch, db: index.db, env: { CAIRN_TUI_SEARCH_HOLD: hold }, ...opts });
  return { r: run, release: () => writeFileSync(hold, "") };
}

const selectedLeft = (screen: string) =>
  screen
    .split("\n")
    .map((row) => row.split("│")[0] ?? "")
    .find((row) => row.startsWith("▸")) ?? "";

describe.skipIf(!hasTmux())("cairn tui while a search runs (tmux)", () => {
  it("draws typed keys, leaves the field and moves the list while a search is held, then shows the latest answer", {
    timeout: 120_000,
  }, async () => {
    const { r, release } = start();
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("t");
    await r.waitFor(/^\/ t +searching…/m);
    r.sendText("est:fail");
    let screen = await r.waitFor(/^\/ test:fail +searching…/m);
    expect(screen).not.toMatch(/Results \(/);

    // Esc leaves the field; the session list moves under j while the search is still held.
    r.sendKeys("Escape");
    screen = await r.waitFor("? keys · Enter open");
    const first = selectedLeft(screen);
    r.sendKeys("j");
    screen = await r.waitUntil("the next session selected", (s) => selectedLeft(s) !== "" && selectedLeft(s) !== first);
    expect(screen).toContain("searching…");

    // Released, the held search for "t" is answered, dropped as stale, and one search for the latest text follows.
    release();
    screen = await r.waitUntil(
      "the answer to test:fail",
      (s) => /Results \(\d+\)/.test(s) && !s.includes("searching…"),
    );
    expect(screen).toMatch(/^\/ test:fail/m);
    expect(screen).toMatch(/test_result fail/);
    r.sendKeys("C-c");
    await r.waitFor("cairn exited 0");
  });

  it("Ctrl-C quits while a search is held, the terminal restored", { timeout: 60_000 }, async () => {
    const { r } = start();
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("error");
    await r.waitFor("searching…");
    r.sendKeys("C-c");
    const screen = await r.waitFor("cairn exited 0");
    expect(screen).toContain("before-tui");
    expect(screen).not.toContain("searching…");
  });

  it("? lists every key, and fits 80×24", { timeout: 60_000 }, async () => {
    const { r } = start({ width: 80, height: 24 });
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("?");
    const screen = await r.waitFor("Keys");
    // The help takes the whole width, so no description is cut.
    const help = screen;
    for (const key of ["↑ ↓", "j k", "PgUp", "PgDn", "Space", "g G", "Home", "End", "mouse wheel", "Tab", "Enter"])
      expect(help).toContain(key);
    for (const key of [
      "/",
      "a  p  s",
      "1 2 3 4 5",
      "n N",
      "z ",
      "A ",
      "R ",
      "y ",
      "e ",
      "r ",
      "w ",
      "q  Esc",
      "Ctrl-C",
      "? ",
    ])
      expect(help).toMatch(new RegExp(`^ ${key.replace(/[?/]/g, "\\$&")}`, "m"));
    expect(help).toContain("this help");
    r.sendKeys("?");
    await r.waitFor("No session open");
    r.sendKeys("q");
    await r.waitFor("cairn exited 0");
  });
});
