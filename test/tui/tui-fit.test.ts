/**
 * The terminal UI at 80×24 and 200×50 as someone used to lazygit or k9s judges it, through the real CLI in tmux on
 * the real transcripts: nothing that matters cut (tabs, filters before the index's path, the help, the resume
 * prompt), the selected hit previewed beside the results, the zoom key, and the brief drawn without markdown.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
  index = tempIndex("cairn-tui-fit-", [realFixturesDir()]);
  return () => index.remove();
});
afterEach(() => {
  run?.kill();
  run = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** The UI on a copy of the index kept where indexes often are: some folders down, about 50 columns of path. */
function start(width: number, height: number): TuiRun {
  scratch = mkdtempSync(join(tmpdir(), "cairn-tui-fit-"));
  const folder = join(scratch, "home/.local/share/cairn-indexes/the-team");
  mkdirSync(folder, { recursive: true });
  const db = join(folder, "cairn.db");
  copyFileSync(index.db, db);
  run = startCairnTui({ dir: scratch, db, width, height });
  return run;
}

const TAB_LABELS = ["1 Timeline", "2 Event", "3 Brief", "4 Threads", "5 Ask", "7 Usage"];
const rowsOf = (screen: string) => screen.split("\n");
const selectedRight = (r: TuiRun, screen: string) => r.right(screen).find((row) => row.startsWith("▸")) ?? "";

/** Searches for failed checks and waits for the results with the first hit previewed on the right. */
async function searchFailures(r: TuiRun): Promise<string> {
  await r.waitFor(/Sessions \(\d+\)/);
  r.sendKeys("/");
  r.sendText("test:fail");
  await r.waitFor(/Results \(\d+\)/);
  r.sendKeys("Enter");
  return r.waitUntil("the selected hit previewed", (s) => r.right(s).some((row) => row.includes("Around it")));
}

/** The hit's position as its preview names it (`test_result fail @1885`). */
const previewed = (r: TuiRun, s: string) =>
  /^\S+ \S+ @(\d+)/.exec(r.right(s).find((row) => / @\d+/.test(row)) ?? "")?.[1];

describe.skipIf(!hasTmux())("cairn tui fits 80×24 and uses 200×50 (tmux, real transcripts)", () => {
  for (const [width, height] of [
    [80, 24],
    [200, 50],
  ] as const) {
    it(`at ${width}×${height}: the hit previewed and followed, every tab, zoom, the brief rendered, the prompt whole`, {
      timeout: 180_000,
    }, async () => {
      const r = start(width, height);
      // Beside the results, the selected hit in its session: its event, and the rows around it, the hit marked.
      let screen = await searchFailures(r);
      expect(screen).not.toContain("No session open");
      const first = previewed(r, screen);
      expect(first).toBeDefined();
      expect(r.right(screen).some((row) => row.startsWith("·") && /\d\d:\d\d\s+\d+ /.test(row))).toBe(true);
      r.sendKeys("j");
      screen = await r.waitUntil("the preview following the selection", (s) => previewed(r, s) !== first);

      // The hit opened in its session: every tab's label, and timeline rows with room to say something.
      r.sendKeys("Enter");
      screen = await r.waitFor("[1 Timeline]");
      for (const label of TAB_LABELS) expect(screen).toContain(label);
      const row = selectedRight(r, screen).trimEnd();
      expect([...row].length).toBeGreaterThanOrEqual(50);

      // z: the right pane over the whole width (no pane border), said in the footer; z again gives the list back.
      r.sendKeys("z");
      screen = await r.waitUntil("the zoomed pane", (s) => rowsOf(s)[1]!.startsWith("[1 Timeline]"));
      expect(
        rowsOf(screen)
          .slice(1, 6)
          .some((line) => line.includes("│")),
      ).toBe(false);
      expect(rowsOf(screen.trimEnd()).at(-1)).toContain("z unzoom");
      r.sendKeys("z");
      await r.waitUntil("the panes back", (s) => rowsOf(s)[1]!.includes("│[1 Timeline]"));

      // The brief as a page: headings and bold as styling, citations as numbered marks; none of the markdown.
      r.sendKeys("3");
      screen = await r.waitUntil("the brief", (s) => s.includes("[3 Brief]") && /\[1\]/.test(r.right(s).join("\n")));
      const brief = r.right(screen).join("\n");
      expect(brief).toMatch(/\[\d+\]/);
      expect(brief).not.toMatch(/\*\*|^.?\s*#|\[e:/m);

      // r: the command and how to answer, both whole.
      r.sendKeys("r");
      screen = await r.waitFor("Enter runs it");
      expect(screen).toMatch(/cairn resume [0-9a-f-]{36} --exec pi/);
      r.sendKeys("x");
      await r.waitUntil("the prompt gone", (s) => !s.includes("Enter runs it"));
    });
  }

  it("at 80×24: the filters before the index's path, and the whole help", { timeout: 120_000 }, async () => {
    const r = start(80, 24);
    await r.waitFor(/Sessions \(\d+\)/);
    r.sendKeys("a");
    let screen = await r.waitFor(/\[agent:\w+\]/);
    expect(rowsOf(screen)[0]).toMatch(/^cairn \d+ sessions? \[agent:\w+\]/);

    r.sendKeys("?");
    // Waited for its last line: a capture can fall mid-frame, after "Keys" and before the rest is drawn.
    screen = await r.waitFor("this help (other keys act as usual)");
    for (const line of [
      "resume: shows the command; Enter runs it",
      "zoom: the right pane over the whole width, again to undo",
      "this help (other keys act as usual)",
    ])
      expect(screen).toContain(line);
  });
});
