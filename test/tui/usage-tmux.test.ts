/**
 * The Usage tab end to end: the built CLI in tmux on an index of the real transcripts. The tab shows the totals
 * `cairn usage --json` reports for the same index, switches to sessions, opens one, fits a 60-column terminal, and
 * the UI quits clean with q and with Ctrl-C.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
let report: {
  totals: { total: number; cost: number };
  groups: Array<{ key: string; session?: { session_id: string } }>;
};

beforeAll(() => {
  index = tempIndex("cairn-tui-usage-", [realFixturesDir()]);
  const r = cairn(["usage", "--json", "--no-index", "--by", "session", "--db", index.db], { env: { HOME: index.dir } });
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout);
  return () => index.remove();
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function start(width = 120, height = 32): TuiRun {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-usage-"));
  run = startCairnTui({ dir: scratch, db: index.db, width, height });
  return run;
}

const tokens = () => report.totals.total.toLocaleString("en-US");
const dollars = () => `$${report.totals.cost.toFixed(2)}`;

describe.skipIf(!hasTmux())("cairn tui Usage tab (tmux, real transcripts)", () => {
  it("shows the totals by day, switches to sessions, opens the costliest, and quits with q", {
    timeout: 120_000,
  }, async () => {
    expect(report.totals.total).toBeGreaterThan(0);
    const r = start();
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("7");
    let screen = await r.waitFor(/Usage by day · \d+ rows/);
    expect(screen).toContain("[7 Usage]");
    expect(screen).toContain(`${tokens()} tokens · ${dollars()}`);
    const right = r.right(screen);
    const total = right.find((row) => /^.Total\s/.test(row))!;
    expect(total.trim().split(/\s+/)).toEqual(["Total", tokens(), dollars()]);
    // A day's row: its date, tokens, cost and a bar; the latest day selected.
    const days = right.filter((row) => /^.\d{4}-\d\d-\d\d\s+[\d,]+\s+\$\d+\.\d\d/.test(row));
    expect(days.length).toBeGreaterThan(1);
    expect(days.some((row) => /█+/.test(row))).toBe(true);
    expect(days.at(-1)).toMatch(/^▸/);

    // w: by week, then s: by session, the costliest first and selected; Enter opens it.
    r.sendKeys("w");
    await r.waitFor(/Usage by week · \d+ rows/);
    r.sendKeys("s");
    screen = await r.waitFor(/Usage by session · \d+ rows/);
    const top = report.groups[0]!.key;
    const selected = r.right(screen).find((row) => row.startsWith("▸"))!;
    expect(selected).toContain(top.slice(0, 8));
    expect(screen).toContain(`${tokens()} tokens · ${dollars()}`);
    r.sendKeys("Enter");
    screen = await r.waitFor("[1 Timeline]");
    expect(screen).toContain(top.slice(0, 8));

    // Back on the tab, it keeps the grouping; q backs out pane by pane, then quits.
    r.sendKeys("7");
    await r.waitFor(/\[7 Usage\][\s\S]*Usage by session/);
    r.sendKeys("q", "q");
    screen = await r.waitFor("cairn exited 0");
    expect(screen).toContain("before-tui");
    expect(screen).not.toContain("Usage by");
  });

  it("fits 60 columns, and Ctrl-C quits from the tab", { timeout: 60_000 }, async () => {
    const r = start(60, 20);
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("7");
    const screen = await r.waitFor(/Usage by day/);
    const rows = screen.split("\n");
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(60);
    expect(screen).toContain("[7 Usage]");
    expect(r.right(screen).some((row) => /^.Total\s/.test(row) && row.includes(dollars()))).toBe(true);
    expect(r.right(screen).some((row) => /\$\d+\.\d\d █/.test(row))).toBe(true);
    r.sendKeys("C-c");
    const after = await r.waitFor("cairn exited 0");
    expect(after).not.toContain("Usage by");
  });

  it("says this week's spend in the header", { timeout: 60_000 }, async () => {
    // A session of today, so that the week has spend; its model's price is the shipped table's.
    const root = mkdtempSync(join(tmpdir(), "cairn-tui-week-"));
    const dir = join(root, ".claude/projects/-work-api");
    mkdirSync(dir, { recursive: true });
    const record = {
      parentUuid: null,
      cwd: "/work/api",
      sessionId: "11111111-2222-3333-4444-555555555555",
      version: "2.1.0",
      type: "assistant",
      timestamp: new Date().toISOString(),
      uuid: "00000000-0000-0000-0000-000000000001",
      requestId: "req_1",
      message: { id: "msg_1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }] },
    };
    const usage = { input_tokens: 1_000_000, output_tokens: 100_000 };
    writeFileSync(
      join(dir, "11111111-2222-3333-4444-555555555555.jsonl"),
      `${JSON.stringify({ ...record, message: { ...record.message, usage } })}\n`,
    );
    const week = tempIndex("cairn-tui-week-index-", [root]);
    try {
      scratch = mkdtempSync(join(tmpdir(), "cairn-tui-usage-"));
      run = startCairnTui({ dir: scratch, db: week.db, width: 120, height: 24 });
      // 1M input at $3 and 100k output at $15 a million.
      await run.waitFor(/cairn\s+1 session · this week \$4\.50/);
    } finally {
      week.remove();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
