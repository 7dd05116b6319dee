/**
 * The terminal UI end to end, as a user drives it: the real CLI in tmux on the real transcripts. Each step waits
 * for what the screen should show (capture-pane polled), never a fixed time.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { startCairnTui, type TuiRun } from "./tui-tmux.ts";

let index: TempIndex;
let run: TuiRun | undefined;
let scratch: string | undefined;

beforeAll(() => {
  index = tempIndex("cairn-tui-index-", [realFixturesDir()]);
  return () => index.remove();
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function start(): TuiRun {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-"));
  run = startCairnTui({ dir: scratch, db: index.db });
  return run;
}

const selectedRight = (r: TuiRun, screen: string) => r.right(screen).find((row) => row.startsWith("▸")) ?? "";

describe.skipIf(!hasTmux())("cairn tui (tmux, real transcripts)", () => {
  it("opens a timeline, searches and opens a hit, follows a brief citation, exports, resizes and quits clean", {
    timeout: 180_000,
  }, async () => {
    const r = start();
    await r.waitFor(/Sessions \(\d+\)/);
    // The first session's timeline: Enter opens it with the cursor on its last row.
    r.sendKeys("Enter");
    let screen = await r.waitFor("[1 Timeline]");
    expect(selectedRight(r, screen)).toMatch(/^▸\s*\d\d:\d\d\s+\d+ /);

    // Search as you type; Enter goes to the results, Enter again opens the hit's session at the hit.
    r.sendKeys("/");
    r.sendText("test:fail");
    screen = await r.waitFor(/Results \(\d+\)/);
    expect(screen).toContain("why: ");
    r.sendKeys("Enter", "Enter");
    screen = await r.waitUntil(
      "the hit's timeline",
      (s) => s.includes("[1 Timeline]") && /[✗] \w+ `/.test(selectedRight(r, s)),
    );

    // A long session is read a stretch at a time: g and G still reach its first and last rows.
    const ordinal = (s: string) => Number(/^▸\s*(?:\d\d:\d\d)?\s+(\d+) /.exec(selectedRight(r, s))?.[1] ?? Number.NaN);
    const atHit = ordinal(screen);
    r.sendKeys("g");
    await r.waitUntil("the session's first row", (s) => ordinal(s) <= 5);
    r.sendKeys("G");
    const total = Number(/· (\d+) events ·/.exec(screen)?.[1]);
    await r.waitUntil("the session's last row", (s) => ordinal(s) > atHit && ordinal(s) >= total - 5);

    // The Brief tab; n moves to the next line with a citation, Enter follows it to the event in the timeline.
    r.sendKeys("3");
    await r.waitUntil("the brief", (s) => s.includes("[3 Brief]") && /\[1\]/.test(r.right(s).join("\n")));
    // (The brief's first line leads to its first citation already; n moves to the next line that leads to one.)
    r.sendKeys("n", "Enter");
    screen = await r.waitFor(/at \[e:\w+\]/);
    expect(screen).toContain("[1 Timeline]");

    // y copies the selected row's citation (OSC 52, and a file for terminals without it).
    r.sendKeys("y");
    screen = await r.waitFor(/copied \[e:\w+\]/);
    const copied = /copied (\[e:\w+\])/.exec(screen)![1]!;
    expect(readFileSync(join(scratch!, "home/.cache/cairn/clipboard.txt"), "utf8")).toBe(copied);

    // Export into the folder it was started in.
    r.sendKeys("e");
    screen = await r.waitFor("exported to ");
    const path = /exported to (\S+\.md)/.exec(screen)![1]!;
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8")).toContain("[e:");

    // 80×24 and back: the layout follows the terminal.
    r.resize(80, 24);
    screen = await r.waitUntil("the 80×24 layout", (s) => {
      const rows = s.split("\n");
      return rows.length >= 24 && /Results \(\d+\)/.test(s) && rows.every((row) => [...row].length <= 80);
    });
    // The footer keeps the last of the 24 rows.
    expect(screen.split("\n")[23]).toContain("exported to");
    r.resize(120, 32);
    await r.waitUntil("the wide layout", (s) => s.split("\n").some((row) => [...row].length > 100));

    // q backs out pane by pane, then quits; the shell's screen comes back as it was.
    r.sendKeys("q", "q", "q");
    screen = await r.waitFor("cairn exited 0");
    expect(screen).toContain("before-tui");
    expect(screen).not.toMatch(/Sessions \(|Timeline/);
  });

  it("a query nothing in the history is about shows no results", { timeout: 60_000 }, async () => {
    const r = start();
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("zzzznotthere");
    const screen = await r.waitFor("Results (0)");
    expect(screen).not.toContain("why: ");
  });

  it("Ctrl-C quits from anywhere with the terminal restored", { timeout: 60_000 }, async () => {
    const r = start();
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("error");
    await r.waitFor(/Results \(\d+\)/);
    r.sendKeys("C-c");
    const screen = await r.waitFor("cairn exited 0");
    expect(screen).toContain("before-tui");
    expect(screen).not.toContain("Results (");
  });
});

describe.skipIf(!hasTmux())("cairn alone in a terminal (tmux)", () => {
  it("indexes, opens the UI, and shows events indexed while it is open", { timeout: 180_000 }, async () => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-tui-live-"));
    const source = join(realFixturesDir(), "claude/codemie-incremental-subagents/turn-2.jsonl");
    const lines = readFileSync(source, "utf8").split("\n").filter(Boolean);
    const transcripts = join(scratch, "transcripts");
    mkdirSync(transcripts);
    const copy = join(transcripts, "session.jsonl");
    const half = Math.floor(lines.length / 2);
    writeFileSync(copy, `${lines.slice(0, half).join("\n")}\n`);
    const db = join(scratch, "live.db");

    run = startCairnTui({ dir: scratch, db, args: ["--root", transcripts] });
    const r = run;
    await r.waitFor("Sessions (1)");
    r.sendKeys("Enter");
    const screen = await r.waitFor("[1 Timeline]");
    const events = (s: string) => Number(/· (\d+) events ·/.exec(s)?.[1] ?? Number.NaN);
    const before = events(screen);
    expect(before).toBeGreaterThan(0);

    appendFileSync(copy, `${lines.slice(half).join("\n")}\n`);
    const indexed = cairn(["index", "--root", transcripts, "--db", db]);
    expect(indexed.code, indexed.stderr).toBe(0);
    // The cursor was on the last row, so it follows the new end (waited for whole: a capture can fall mid-frame).
    const lastRow = (s: string) =>
      r
        .right(s)
        .filter((row) => /^\S?\s*\d\d:\d\d\s+\d+ /.test(row))
        .at(-1) ?? "";
    await r.waitUntil(
      "the new events in the open timeline, the cursor on the last",
      (s) => events(s) > before && lastRow(s).startsWith("▸"),
    );
    r.sendKeys("q", "q");
    await r.waitFor("cairn exited 0");
  });

  it("prints the overview when stdout is not a terminal", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-tui-pipe-"));
    scratch = dir;
    const res = cairn(["--root", join(realFixturesDir(), "codex"), "--db", join(dir, "c.db")], {
      env: { HOME: dir },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("By agent and project");
  });
});
