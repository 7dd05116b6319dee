/**
 * `/reload` in the middle of a sequence run, on pi's real runtime. pi makes every context stale on reload, so the
 * run must cross it as data on the session tree, with no module-level registry to find it again.
 */
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import type { HandoffBriefSource } from "../../../src/pi/handoff/brief-source.ts";
import { rebuildPages } from "../../../src/pi/notebook/pages.ts";
import { SEQUENCE_STATUS_KEY } from "../../../src/pi/sequence/progress.ts";
import { latestRunRecord } from "../../../src/pi/sequence/run-records.ts";
import { KEYS, mountEditor, type } from "../helpers/editor-host.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

let harness: RuntimeHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** A brief source whose `blockCall`-th brief waits until released, so the session sits idle mid-run. */
function gatedBriefs(blockCall: number) {
  let calls = 0;
  let release: () => void = () => {};
  let reached: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const blocked = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const briefs: HandoffBriefSource = {
    buildBrief: async ({ direction }) => {
      calls++;
      if (calls === blockCall) {
        reached();
        await gate;
      }
      return { markdown: `- Goal: ${direction} [e:e1]`, citedEventIds: ["e1"] };
    },
  };
  return { briefs, blocked, release: () => release() };
}

/** Record `steps` and start running them `runs` times; resolves when the /sequence command returns. */
async function recordAndRun(current: RuntimeHarness, steps: string[], runs: number): Promise<void> {
  const { ui } = current;
  ui.answers.input.push(String(runs));
  const finished = current.session.prompt("/sequence");
  await ui.until(() => ui.editorFactory !== undefined, "the recorder");
  if (!ui.editorFactory) throw new Error("the recorder is not active");
  const editor = mountEditor(ui.editorFactory);
  for (const step of steps) {
    type(editor, step);
    editor.handleInput(KEYS.enter);
  }
  editor.handleInput(KEYS.ctrlEnterKitty);
  await finished;
}

describe("/reload during a sequence run on the real pi runtime", () => {
  it("pauses at the handoff it was preparing, survives a second reload, and /sequence continues it exactly once", async () => {
    const gated = gatedBriefs(2);
    harness = await createRuntimeHarness({
      extensions: [
        {
          name: "cairn",
          factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), briefs: gated.briefs }),
        },
      ],
    });
    const { ui } = harness;
    await harness.session.prompt("Start here");
    const steps = ["/notebook write plan keep this", "Step A", "/handoff carry on", "After the handoff"];
    const running = recordAndRun(harness, steps, 2);

    // Run 2's handoff is building its brief (the session is idle, so pi's TUI accepts /reload now).
    await gated.blocked;
    const run2Session = harness.session.sessionFile;
    await harness.session.reload();
    gated.release();
    await running;

    const paused = "⏸ sequence · paused before the handoff at run 2/2, step 3/4 · /sequence continues";
    expect(harness.errors).toEqual([]);
    expect(harness.session.sessionFile).toBe(run2Session);
    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(paused);
    expect(ui.editorText).toBe("/sequence");
    expect(ui.notifications.at(-1)?.type).toBe("warning");
    expect(latestRunRecord(harness.session.sessionManager.getBranch())).toMatchObject({
      phase: "interrupted",
      pending: "handoff",
      direction: "carry on",
      run: { runIndex: 1, stepIndex: 2 },
    });

    // A second reload while paused keeps the run paused where it was.
    await harness.session.reload();
    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(paused);

    ui.answers.select.push("Continue");
    await harness.session.prompt("/sequence");

    expect(harness.errors).toEqual([]);
    expect(ui.asked.at(-1)).toEqual({
      kind: "select",
      title: "Sequence paused at run 2/2, step 3/4: continue it?",
      options: ["Continue", "Cancel the sequence"],
    });
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence finished: 2 runs of 4 steps.", type: "info" });
    expect(ui.statuses.has(SEQUENCE_STATUS_KEY)).toBe(false);
    // Every step ran once, in order, across the reload: nothing repeated, nothing skipped.
    expect(harness.prompts).toEqual([
      "Start here",
      "Step A",
      "carry on",
      "After the handoff",
      "Step A",
      "carry on",
      "After the handoff",
    ]);
    // The handoff made after the reload started from the session the run was paused in, with its notebook.
    const last = SessionManager.open(harness.session.sessionFile as string);
    expect(last.getHeader()?.parentSession).toBe(run2Session);
    expect([...rebuildPages(last.getBranch()).keys()]).toEqual(["plan"]);
    expect(latestRunRecord(last.getBranch())?.phase).toBe("finished");
  });
});
