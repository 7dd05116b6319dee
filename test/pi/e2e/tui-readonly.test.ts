/**
 * Read-only mode in pi's real interactive TUI, driven through tmux: `/readonly on` takes one Enter, and the user's
 * own `!` commands are refused when they write and sandboxed otherwise, while the footer shows "🔒 readonly".
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBwrapProbe } from "../../../src/pi/readonly/sandbox.ts";
import { type PiInTmux, startPiInTmux } from "../helpers/pi-tmux.ts";
import { hasTmux } from "../helpers/tmux.ts";

let pi: PiInTmux | undefined;
afterEach(() => {
  pi?.stop();
  pi = undefined;
});

const isOffRow = (row: string) => /^(→ )?off\b/.test(row.trim());

describe.skipIf(!hasTmux())("read-only mode in pi's TUI (tmux)", () => {
  it("/readonly on takes one Enter", { timeout: 120_000 }, async () => {
    pi = await startPiInTmux();
    const { screen, editor } = pi;
    screen.sendText("/readonly o");
    await editor("the argument list to offer on and off", (view) => view.autocomplete.some(isOffRow));
    screen.sendText("n");
    // Pi has answered for the complete argument once "off" is gone; the list is closed or (the old trap) open on "on".
    await editor(
      "the autocomplete answer for /readonly on",
      (view) => view.lines.join("\n").trim() === "/readonly on" && !view.autocomplete.some(isOffRow),
    );
    screen.sendKeys("Enter");
    await screen.waitFor("🔒 readonly", 20_000);
    expect(screen.capture()).toContain("Read-only mode on:");
  });

  it("refuses the user's ! command that writes, and sandboxes the others", { timeout: 120_000 }, async () => {
    pi = await startPiInTmux();
    const { screen, work, submit, editorShows } = pi;
    writeFileSync(join(work, "notes.txt"), "original notes\n");
    await submit("/readonly on");
    await screen.waitFor("🔒 readonly");

    await submit("!echo hi > f.txt");
    await screen.waitFor("not run, because this command redirects output to f.txt", 20_000);
    expect(screen.capture()).toContain("Leave read-only mode with /readonly off, then run it again.");
    expect(existsSync(join(work, "f.txt"))).toBe(false);

    await editorShows("");
    await submit("!!rm notes.txt");
    await screen.waitFor("not run, because this command rm changes files", 20_000);
    expect(readFileSync(join(work, "notes.txt"), "utf8")).toBe("original notes\n");

    await editorShows("");
    await submit("!cat notes.txt");
    await screen.waitFor("original notes");

    if (createBwrapProbe()().kind === "bwrap") {
      // awk's own redirection is data to the classifier; the sandbox still stops the write.
      await editorShows("");
      await submit(`!awk 'BEGIN { print 1 > "g.txt" }'`);
      await screen.waitFor("Read-only file system", 20_000);
      expect(existsSync(join(work, "g.txt"))).toBe(false);
    }
    expect(screen.capture()).toContain("🔒 readonly");
  });
});
