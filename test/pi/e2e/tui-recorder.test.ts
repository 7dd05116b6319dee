/**
 * The sequence recorder in pi's real interactive TUI, driven through tmux: record (with slash autocomplete and a
 * rejected third-party command), preview, finish with Ctrl+Enter, answer the run count, watch the progress status, see both runs
 * finish. The model is a scripted provider registered by a test-only extension; everything runs offline in temp
 * directories with a clean environment.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { hasTmux, startTmux, type TmuxSession } from "../helpers/tmux.ts";

const here = dirname(fileURLToPath(import.meta.url));
const extensionEntry = resolve(here, "../../../src/pi/index.ts");
const scriptedProvider = resolve(here, "fixtures/scripted-provider.ts");
// pi's own CLI entry (what the `pi` bin links to), run with this Node.
const piCli = resolve(here, "../../../node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

let tmux: TmuxSession | undefined;
let root: string | undefined;
afterEach(() => {
  tmux?.kill();
  tmux = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe.skipIf(!hasTmux())("sequence recorder in pi's TUI (tmux)", () => {
  it("records, previews, finishes, asks the run count and shows progress", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "cairn-tui-"));
    root = scratch;
    const [home, agent, work] = ["home", "agent", "work"].map((name) => join(scratch, name));
    for (const dir of [home, agent, work]) mkdirSync(dir as string, { recursive: true });
    const gate = join(scratch, "release-replies");

    tmux = startTmux({
      socketPath: join(scratch, "tmux.sock"),
      cwd: work as string,
      command: [
        "env",
        "-i",
        `PATH=${dirname(process.execPath)}:/usr/bin:/bin`,
        `HOME=${home}`,
        `PI_CODING_AGENT_DIR=${agent}`,
        "PI_OFFLINE=1",
        "PI_SKIP_VERSION_CHECK=1",
        "PI_TELEMETRY=0",
        "TERM=xterm-256color",
        "LANG=C.UTF-8",
        `CAIRN_E2E_GATE=${gate}`,
        process.execPath,
        piCli,
        "-e",
        extensionEntry,
        "-e",
        scriptedProvider,
        "--model",
        "scripted/m1",
      ],
    });
    const screen = tmux;
    await screen.waitFor("e2e ready");

    screen.sendText("/sequence Ada");
    screen.sendKeys("Enter");
    await screen.waitFor("● recording sequence · 0 steps · Enter adds step · Ctrl+Enter finishes · Esc cancels");

    screen.sendText("Say hello to $1");
    screen.sendKeys("Enter");
    await screen.waitFor("● recording sequence · 1 step ·");
    expect(screen.capture()).toMatch(/Sequence\n\s*1\. Say hello to \$1/);

    screen.sendText("/publish");
    screen.sendKeys("Enter");
    await screen.waitFor("Unsupported step: /publish is an external extension command.");
    expect(screen.capture()).toContain("pi-agenticoding cannot execute third-party extension command handlers.");
    screen.sendKeys("C-u");

    // The recorder keeps pi's slash-command autocomplete.
    screen.sendText("/noteb");
    await screen.waitFor("Task notebook: list, show, write, append, delete or clear named pages");
    screen.sendText("ook write plan draft for $1");
    screen.sendKeys("Enter");
    await screen.waitFor("● recording sequence · 2 steps ·");
    expect(screen.capture()).toMatch(/Sequence\n\s*1\. Say hello to \$1\n\s*2\. \/notebook write plan draft for \$1/);

    screen.sendKeys("C-Enter");
    await screen.waitFor("Run this sequence how many times? [1]");
    screen.sendText("2");
    screen.sendKeys("Enter");

    await screen.waitFor("⟳ sequence · run 1/2 · step 1/2 · Say hello to $1");
    writeFileSync(gate, "");
    await screen.waitFor("Sequence finished: 2 runs of 2 steps.");
    const final = screen.capture();
    expect(final).toContain("Scripted reply to: Say hello to Ada");
    expect(final).not.toContain("● recording sequence");
  });
});
