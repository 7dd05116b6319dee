/**
 * Issue 34 in the terminal UI: `cairn tui` on the planted-secrets transcripts, in tmux. The session list, each
 * session's timeline, the Event tab of every row, the Brief tab, and search results for queries that find each
 * secret: neither a captured screen nor anything the TUI wrote to the terminal may hold a 20-character piece of a
 * planted secret, and no planted escape sequence may reach the terminal (the pane's title and tmux's clipboard
 * buffers stay untouched).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { buildIndex, type ProbeIndex } from "./helpers/index.ts";
import { ESCAPED_NAME, ESCAPES, LeakReport, shown, writePlantedHome } from "./helpers/planted.ts";
import { SECRET_QUERIES } from "./helpers/queries.ts";
import { startTui, type TuiProbe } from "./helpers/tui.ts";

let index: ProbeIndex;
let tui: TuiProbe;
const report = new LeakReport();

beforeAll(async () => {
  index = buildIndex("cairn-probe-secrets-tui-", writePlantedHome);
  tui = await startTui(index);
}, 120_000);
afterAll(() => {
  tui?.kill();
  index?.remove();
});

/** Adds the screen as captured now to the report. */
function screen(where: string): void {
  report.add(`${where} (screen)`, tui.tmux.capture());
}

describe.skipIf(!hasTmux())("cairn tui on the planted transcripts", () => {
  it("walks the sessions, every timeline row's event, the briefs and searches", { timeout: 600_000 }, async () => {
    const listed = /Sessions \((\d+)\)/.exec(tui.text())!;
    const count = Number(listed[1]);
    expect(count).toBeGreaterThan(0);
    screen("the session list");
    for (let s = 0; s < count; s++) {
      // From the session list: the s-th session's timeline (it opens at its last row).
      const opened = await tui.step(["g", ...Array<string>(s).fill("j"), "Enter"], /· (\d+) events ·/);
      const events = Number(/· (\d+) events ·/.exec(opened)![1]);
      screen(`session ${s + 1}'s timeline`);
      // Every row, from the last up: Enter shows its event on the Event tab, 1 goes back to the timeline.
      for (let row = 0; row < events; row++) {
        await tui.step(["Enter"], "[2 Event]");
        screen(`session ${s + 1}, row ${events - row} from the end, Event tab`);
        await tui.step(["1"], "[1 Timeline]");
        if (row + 1 < events) tui.tmux.sendKeys("k");
      }
      // The brief for a person: its line of where and how much ("pi · /w/app · 120 events").
      await tui.step(["3"], /· \d+ events/, 60_000);
      screen(`session ${s + 1}'s brief`);
      for (let page = 0; page < 6; page++) {
        await tui.press(["PageDown"]);
        screen(`session ${s + 1}'s brief, page ${page + 2}`);
      }
      await tui.step(["1", "q"], /Sessions \(\d+\)/);
    }
    for (const query of SECRET_QUERIES) {
      await tui.press(["/", "C-u"]);
      // Words answer first, then meaning once typing pauses (a filter alone has no meaning pass): wait for both.
      await tui.type(query, /Results \(\d+\) · \d+ ms/);
      await tui.press([]);
      screen(`search "${query}"`);
      await tui.step(["Enter"], "? keys");
      screen(`search "${query}", results`);
    }
    report.add("everything the TUI wrote to the terminal", tui.raw());
    expect(report.lines()).toEqual([]);
  });

  it("wrote none of the planted escapes to the terminal: no title, no clipboard write, no C1 or backspace run", () => {
    const raw = tui.raw();
    const found = Object.entries({
      ...ESCAPES,
      "the file name's title": ESCAPED_NAME.slice(ESCAPED_NAME.indexOf("\u001b"), ESCAPED_NAME.indexOf("\u0007") + 1),
      "the file name's clear screen": "\u0007-\u001b[2J.txt",
    })
      // pi-tui itself clears the screen and ends its own OSC sequences with BEL: those two prove nothing alone.
      .filter(([name, seq]) => name !== "bel" && name !== "clear" && raw.includes(seq))
      .map(([name, seq]) => `written: ${name} ${shown(seq)}`);
    const title = tui.title();
    if (/cairn-owned-title|pwned-by-name/.test(title)) found.push(`the pane's title became "${title}"`);
    if (tui.buffers().includes("curl evil.sh")) found.push("tmux's clipboard holds the planted OSC 52 text");
    expect(found).toEqual([]);
  });
});
