/**
 * The sequence recorder in pi's real interactive TUI, driven through tmux: record (with slash autocomplete and a
 * rejected third-party command), edit a step in place with ↑, preview, finish with Ctrl+Enter, answer the run count,
 * watch the progress status, see both runs finish with the edited step. The model is a scripted provider registered
 * by a test-only extension; everything runs offline in temp directories with a clean environment.
 *
 * Keys are sent only once the editor shows the state they should act on (its text, and its autocomplete list open
 * on the expected item or closed): pi answers autocomplete asynchronously, and Enter applies a list that is open.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { piVersion } from "../helpers/pi-cli.ts";
import { type PiInTmux, startPiInTmux } from "../helpers/pi-tmux.ts";
import { editorView, hasTmux } from "../helpers/tmux.ts";

let pi: PiInTmux | undefined;
let gates: string | undefined;
afterEach(() => {
  pi?.stop();
  pi = undefined;
  if (gates) rmSync(gates, { recursive: true, force: true });
  gates = undefined;
});

describe.skipIf(!hasTmux())(`sequence recorder in pi ${piVersion}'s TUI (tmux)`, () => {
  it("records, edits, previews, finishes, asks the run count and shows progress", { timeout: 120_000 }, async () => {
    gates = mkdtempSync(join(tmpdir(), "cairn-tui-gate-"));
    // The scripted model holds every answer until this file exists.
    const gate = join(gates, "release-replies");
    pi = await startPiInTmux({ env: { CAIRN_E2E_GATE: gate } });
    const { screen, agent, work } = pi;
    const footerStart = work;

    /**
     * Wait until pi's editor shows exactly `text` and its autocomplete list is closed (or, with `selected`, open on
     * that item): keys sent after this act on that state, not on an autocomplete answer still on its way.
     */
    const editorShows = (text: string, selected?: string) =>
      screen.waitUntil(
        `the editor to show ${JSON.stringify(text)}${selected ? ` with ${selected} selected` : ""}`,
        (s) => {
          const view = editorView(s, footerStart);
          if (!view || view.lines.join("\n").trim() !== text) return false;
          return selected === undefined
            ? view.autocomplete.length === 0
            : (view.autocomplete.find((row) => row.startsWith("→ "))?.startsWith(`→ ${selected} `) ?? false);
        },
      );
    const submit = async (text: string) => {
      screen.sendText(text);
      await editorShows(text);
      screen.sendKeys("Enter");
    };

    await submit("/sequence Ada");
    await screen.waitFor("● recording sequence · 0 steps · Enter adds step · Ctrl+Enter finishes · Esc cancels");

    await submit("Say hello to $1");
    await screen.waitFor("● recording sequence · 1 step ·");
    expect(screen.capture()).toMatch(/Sequence\n\s*1\. Say hello to \$1/);

    screen.sendText("/publish");
    await editorShows("/publish", "publish");
    screen.sendKeys("Enter");
    await screen.waitFor("Unsupported step: /publish is an external extension command.");
    expect(screen.capture()).toContain("pi-agenticoding cannot execute third-party extension command handlers.");
    screen.sendKeys("C-u");
    await editorShows("");

    // The recorder keeps pi's slash-command autocomplete: Tab takes the selected command.
    screen.sendText("/noteb");
    await editorShows("/noteb", "notebook");
    expect(screen.capture()).toContain("Task notebook: list, show, write, append, delete or clear named pages");
    screen.sendKeys("Tab");
    await editorShows("/notebook");
    screen.sendText("write plan draft for $1");
    await editorShows("/notebook write plan draft for $1");
    screen.sendKeys("Enter");
    await screen.waitFor("● recording sequence · 2 steps ·");
    expect(screen.capture()).toMatch(/Sequence\n\s*1\. Say hello to \$1\n\s*2\. \/notebook write plan draft for \$1/);

    // ↑ selects the last step for editing in place; Enter saves the edit and returns to a new step.
    screen.sendKeys("Up");
    await screen.waitFor("● editing step 2 of 2 · Enter saves");
    await editorShows("/notebook write plan draft for $1");
    screen.sendKeys("C-u");
    await editorShows("");
    await submit("/notebook write plan final for $1");
    await screen.waitFor("● recording sequence · 2 steps ·");
    expect(screen.capture()).toMatch(/Sequence\n\s*1\. Say hello to \$1\n\s*2\. \/notebook write plan final for \$1/);

    screen.sendKeys("C-Enter");
    await screen.waitFor("Run this sequence how many times? [1]");
    screen.sendText("2");
    screen.sendKeys("Enter");

    await screen.waitFor("⟳ sequence · run 1/2 · step 1/2 · Say hello to $1");
    writeFileSync(gate, "");
    await screen.waitFor("Sequence finished: 2 runs of 2 steps.");
    const final = screen.capture();
    expect(final).toContain("Scripted reply to: Say hello to Ada");
    // The edited step is what ran: both sessions' notebooks hold the final text.
    const sessionFiles = readdirSync(join(agent, "sessions"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".jsonl"))
      .map((file) => readFileSync(join(agent, "sessions", file), "utf8"));
    const pages = sessionFiles.flatMap((text) =>
      text
        .split("\n")
        .filter((line) => line.includes('"customType":"cairn-notebook"'))
        .map((line) => (JSON.parse(line) as { data: { content: string } }).data.content),
    );
    expect(pages).toEqual(["final for Ada", "final for Ada"]);
    expect(final).not.toContain("● recording sequence");
  });
});
