/**
 * The Threads tab in tmux: the real transcripts plus a Claude and a Codex session that worked on the same rare
 * files (written in each agent's own format), so one thread crosses agents and the real sessions are threads of
 * one with the label their checks give them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { sid, Work, writeWork } from "../threads/work.ts";
import { startCairnTui, type TuiRun } from "./tui-tmux.ts";

const PAIR = { claude: sid("claude-cart"), codex: sid("codex-cart") };
let pairDir: string;
let index: TempIndex;
let run: TuiRun | undefined;
let scratch: string | undefined;

beforeAll(() => {
  pairDir = mkdtempSync(join(tmpdir(), "cairn-tui-pair-"));
  writeWork(
    pairDir,
    new Work("claude", PAIR.claude, { start: "2026-03-02T09:00:00.000Z", cwd: "/w/shop" })
      .prompt("fix the cart total")
      .read("src/cart/total.ts", "src/cart/tax-rules.ts")
      .run("npm test -- cart", "FAIL src/cart/total.test.ts", 1),
    new Work("codex", PAIR.codex, { start: "2026-03-02T10:00:00.000Z", cwd: "/w/shop" })
      .prompt("carry on with the cart total")
      .edit("src/cart/total.ts", "src/cart/tax-rules.ts")
      .run("npm test -- cart", "ok 12 tests", 0),
  );
  index = tempIndex("cairn-tui-threads-", [realFixturesDir(), pairDir]);
});
afterAll(() => {
  index?.remove();
  rmSync(pairDir, { recursive: true, force: true });
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

const selectedRight = (r: TuiRun, screen: string) => r.right(screen).find((row) => row.startsWith("▸")) ?? "";

describe.skipIf(!hasTmux())("cairn tui Threads tab (tmux)", () => {
  it("shows the open session's thread, opens its other session, and goes to one of its events", {
    timeout: 120_000,
  }, async () => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-tui-"));
    const r = startCairnTui({ dir: scratch, db: index.db });
    run = r;
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("provider:claude fix the cart total");
    await r.waitFor(/Results \([1-9]\d*\)/);
    r.sendKeys("Enter", "Enter");
    await r.waitFor(`claude shop ${PAIR.claude.slice(0, 8)}`);

    r.sendKeys("4");
    let screen = await r.waitFor("[4 Threads]");
    screen = await r.waitFor(/thread [0-9a-f]{12} (open|closed) · 2 sessions · claude, codex/);
    expect(screen).toContain(`${PAIR.claude.slice(0, 8)}`);
    expect(screen).toMatch(/claude .*\(open\)/);
    expect(screen).toContain("file src/cart/total.ts");
    expect(screen).toContain("Latest events");

    // n walks the lines that lead somewhere: the thread's sessions first. Enter on the Codex one opens it.
    r.sendKeys("n");
    screen = await r.waitUntil("a session line selected", (s) => selectedRight(r, s).includes("claude"));
    r.sendKeys("n");
    screen = await r.waitUntil("the codex session selected", (s) => selectedRight(r, s).includes("codex"));
    r.sendKeys("Enter");
    screen = await r.waitFor(`codex shop ${PAIR.codex.slice(0, 8)}`);
    expect(screen).toContain("[1 Timeline]");

    // From the Codex session's Threads tab, an event of the thread's merged timeline opens in its session.
    r.sendKeys("4");
    await r.waitFor("Latest events");
    r.sendKeys("G");
    screen = await r.waitUntil("a latest event selected", (s) =>
      / {2}\d\d-\d\d \d\d:\d\d [0-9a-f]{8} +\d+ /.test(selectedRight(r, s)),
    );
    r.sendKeys("Enter");
    screen = await r.waitFor(/at \[e:\w+\] @\d+/);
    expect(screen).toContain("[1 Timeline]");

    // A real session is a thread of one, labelled by its own checks.
    r.sendKeys("q", "q");
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("/");
    r.sendText("provider:pi test:fail");
    await r.waitFor(/Results \([1-9]\d*\)[^\n]*\n.pi +\d/);
    r.sendKeys("Enter", "Enter");
    await r.waitFor(/\[1 Timeline\][^\n]*\n[^\n]*│pi pi-mono/);
    r.sendKeys("4");
    screen = await r.waitFor(/thread [0-9a-f]{12} open · 1 session /);
    expect(screen).toContain("joined no other session");
    expect(screen).toMatch(/checks? failed/);
    r.sendKeys("C-c");
    await r.waitFor("cairn exited 0");
  });
});
