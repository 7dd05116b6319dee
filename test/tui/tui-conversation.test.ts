/**
 * The Conversation tab through the real CLI in tmux at 80×24 and 200×50, on an index of the real transcripts:
 * `c` from a search hit opens the conversation at it (a real Claude Code Edit, opened to its diff, folded and
 * opened again with Enter), and a real Claude Code session's subagent folded where it began, opened in place,
 * with the agent's markdown drawn, never raw.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TempIndex, tempIndex } from "../helpers/temp-index.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { startCairnTui, type TuiRun } from "./tui-tmux.ts";

let index: TempIndex;
let run: TuiRun | undefined;
let scratch: string | undefined;

beforeAll(() => {
  index = tempIndex("cairn-tui-conv-", [realFixturesDir()]);
  return () => index.remove();
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function start(width: number, height: number): TuiRun {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-conv-"));
  run = startCairnTui({ dir: scratch, db: index.db, width, height });
  return run;
}

/** The selected row of the right pane (the list marks it ▸), the pane's border taken off. */
const selected = (r: TuiRun, s: string) => r.right(s).find((row) => row.startsWith("▸")) ?? "";

/** Searches, waits for the first hit previewed beside the results, and presses `c` on it. */
async function conversationAtHit(r: TuiRun, query: string): Promise<string> {
  await r.waitFor(/Sessions \(\d+\)/);
  r.sendKeys("/");
  r.sendText(query);
  await r.waitFor(/Results \(\d+\)/);
  r.sendKeys("Enter");
  await r.waitUntil("the hit previewed", (s) => r.right(s).some((row) => row.includes("Around it")));
  r.sendKeys("c");
  return r.waitUntil("the conversation", (s) => /\[6 Conv(ersation)?\]/.test(s) && !s.includes("reading the"));
}

describe.skipIf(!hasTmux())("cairn tui's Conversation tab (tmux, real transcripts)", () => {
  for (const [width, height] of [
    [80, 24],
    [200, 50],
  ] as const) {
    it(`at ${width}×${height}: c on a search hit opens the conversation at its Edit, a card that opens to a diff`, {
      timeout: 180_000,
    }, async () => {
      const r = start(width, height);
      let screen = await conversationAtHit(r, "tool:Edit incremental");
      // Every tab's label, the new one shortened only where the pane is narrow.
      for (const label of ["1 Timeline", "2 Event", "3 Brief", "4 Threads", "5 Ask"]) expect(screen).toContain(label);
      expect(screen).toContain(width >= 100 ? "[6 Conversation]" : "[6 Conv]");
      // The hit's block selected and opened: the card, then its diff with the lines taken out and put in.
      screen = await r.waitUntil("the hit's card selected", (s) => selected(r, s).startsWith("▸▿ Edit "));
      expect(selected(r, screen)).toMatch(/^▸▿ Edit .* · \d+(\.\d)? (chars|kB)\s*$/);
      r.sendKeys("z");
      screen = await r.waitUntil("the zoomed diff", (s) => /^ ?1 Time/.test(s.split("\n")[1]!));
      const rows = screen.split("\n");
      expect(rows.some((row) => /^\s*│ - /.test(row))).toBe(true);
      expect(rows.some((row) => /^\s*│ \+ /.test(row))).toBe(true);
      expect(screen.trimEnd().split("\n").at(-1)).toContain("Enter fold/unfold");

      // Enter folds the card to its one line; Enter again opens it (zoomed: no pane border to cut at).
      const zoomedSelected = (s: string) => s.split("\n").find((row) => row.startsWith("▸")) ?? "";
      expect(zoomedSelected(screen)).toMatch(/^▸▿ Edit /);
      r.sendKeys("Enter");
      // The selection's marker can be drawn a frame before the diff's rows are gone: wait for both.
      const diffShown = (s: string) => s.split("\n").some((row) => /^\s*│ [-+] /.test(row));
      screen = await r.waitUntil("the card folded", (s) => zoomedSelected(s).startsWith("▸▹ Edit ") && !diffShown(s));
      expect(diffShown(screen)).toBe(false);
      r.sendKeys("Enter");
      await r.waitUntil("the card open again", (s) => s.split("\n").some((row) => /^\s*│ \+ /.test(row)));

      // c goes back: the timeline at the call's row.
      r.sendKeys("c");
      screen = await r.waitUntil("the timeline at the call", (s) => s.includes("[1 Timeline]"));
      expect(zoomedSelected(screen)).toContain("ARCHITECTURE-REFACTORING");
    });

    it(`at ${width}×${height}: a Claude Code subagent folded where it began opens in place; markdown drawn`, {
      timeout: 180_000,
    }, async () => {
      const r = start(width, height);
      let screen = await conversationAtHit(r, "tool:Task solution-architect");
      screen = await r.waitUntil("the Task card selected", (s) => selected(r, s).startsWith("▸▿ Task "));
      // n: the next line that leads somewhere, down to the subagent's card.
      for (let i = 0; i < 6 && !selected(r, screen).includes("subagent:"); i++) {
        const before = selected(r, screen);
        r.sendKeys("n");
        screen = await r.waitUntil("the selection moved", (s) => selected(r, s) !== before);
      }
      expect(selected(r, screen)).toMatch(/^▸▹ subagent: Analyze the existing CLI.* · 62 events\s*$/);
      r.sendKeys("Enter");
      screen = await r.waitUntil("the subagent open", (s) => selected(r, s).startsWith("▸▿ subagent:"));
      const right = r.right(screen);
      const at = right.findIndex((row) => row.startsWith("▸"));
      const nested = right.slice(at + 1).join("\n");
      // Its own conversation, indented under its card: the request it was given, then its first calls.
      expect(nested).toMatch(/^ {3}user \d\d:\d\d/m);
      expect(nested).toMatch(/^ {5}Analyze the existing CLI command/m);

      // The session's last reply, a markdown summary: its heading and bold drawn as text.
      r.sendKeys("G");
      await r.waitUntil("the conversation's last line", (s) => !selected(r, s).includes("subagent:"));
      r.sendKeys("N");
      screen = await r.waitUntil("the last reply's header", (s) => /^▸agent \d\d:\d\d/.test(selected(r, s)));
      const reply = r.right(screen).join("\n");
      expect(reply).toMatch(/^ {3}Summary\s*$/m);
      // (Where its lines wrap depends on the pane's width.)
      expect(reply.replace(/\s+/g, " ")).toContain("10 valuable new CLI");
      expect(reply).not.toMatch(/\*\*|^\s*#/m);
    });
  }
});
