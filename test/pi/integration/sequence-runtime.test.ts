/**
 * The sequence feature on pi's real runtime (AgentSessionRuntime with bound command actions, faux model).
 */
import { writeFileSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createCairnExtension } from "../../../src/pi/extension.ts";
import { NOTEBOOK_ENTRY_TYPE } from "../../../src/pi/notebook/pages.ts";
import { EDIT_HINT, SEQUENCE_STATUS_KEY } from "../../../src/pi/sequence/progress.ts";
import { DISCARD_TITLE } from "../../../src/pi/sequence/recorder.ts";
import { latestSnapshot } from "../../../src/pi/sequence/snapshot.ts";
import { SEQUENCE_SNAPSHOT_TYPE } from "../../../src/pi/sequence/types.ts";
import { KEYS, mountEditor, type } from "../helpers/editor-host.ts";
import type { FakeUi } from "../helpers/fake-pi.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime.ts";

const TEMPLATE_V1 = "---\ndescription: One-line summary\n---\nSummarize $1 in one line (template v1).";
const TEMPLATE_V2 = "---\ndescription: One-line summary\n---\nSummarize $1 in one line (template v2).";

let harness: RuntimeHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** A test-only extension that keeps the first context it sees, to show it is stale after the reset. */
function contextProbe() {
  const seen: ExtensionContext[] = [];
  return {
    seen,
    extension: {
      name: "probe",
      factory: (pi: ExtensionAPI) => {
        pi.on("session_start", (_event, ctx) => {
          seen.push(ctx);
        });
      },
    },
  };
}

function recorder(ui: FakeUi) {
  if (!ui.editorFactory) throw new Error("the recorder is not active");
  return mountEditor(ui.editorFactory);
}

/** Messages and cairn entries of a session file's current branch, in order, as short strings. */
function transcript(sessionFile: string): string[] {
  return SessionManager.open(sessionFile)
    .getBranch()
    .flatMap((entry: SessionEntry): string[] => {
      if (entry.type === "custom" && entry.customType === SEQUENCE_SNAPSHOT_TYPE) return ["[sequence snapshot]"];
      if (entry.type === "custom" && entry.customType === NOTEBOOK_ENTRY_TYPE) {
        const data = entry.data as { name: string; content: string };
        return [`[notebook ${data.name}: ${data.content}]`];
      }
      if (entry.type !== "message") return [];
      const { message } = entry;
      if (message.role === "user" || message.role === "assistant") {
        const content =
          typeof message.content === "string"
            ? message.content
            : message.content.map((p) => ("text" in p ? p.text : "")).join("");
        return [`${message.role}: ${content}`];
      }
      return [];
    });
}

describe("sequences on the real pi runtime", () => {
  it("records prompt, /notebook and a template, then runs them twice in two fresh sessions", async () => {
    const probe = contextProbe();
    harness = await createRuntimeHarness({
      extensions: [
        { name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }) }) },
        probe.extension,
      ],
      files: { ".pi/prompts/oneline.md": TEMPLATE_V1 },
    });
    const { ui } = harness;
    const firstSessionFile = harness.session.sessionFile;
    if (!firstSessionFile) throw new Error("expected a persisted session");

    // Edit the template between the iterations: as soon as run 2 starts, before its template step runs.
    const edited = ui
      .until(() => ui.statuses.get(SEQUENCE_STATUS_KEY)?.includes("run 2/2") ?? false, "run 2")
      .then(() => {
        writeFileSync(`${harness?.cwd}/.pi/prompts/oneline.md`, TEMPLATE_V2);
      });

    ui.answers.input.push("2");
    const finished = harness.session.prompt("/sequence parser");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    const editor = recorder(ui);
    for (const step of ["Say hello to $1", "/notebook write topic Topic is $1", "/oneline $1"]) {
      type(editor, step);
      editor.handleInput(KEYS.enter);
    }
    expect(ui.widgets.get("cairn-sequence")).toEqual([
      "Sequence",
      "1. Say hello to $1",
      "2. /notebook write topic Topic is $1",
      "3. /oneline $1",
      EDIT_HINT,
    ]);
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;
    await edited;

    expect(harness.errors).toEqual([]);
    const secondSessionFile = harness.session.sessionFile;
    expect(secondSessionFile).toBeDefined();
    expect(secondSessionFile).not.toBe(firstSessionFile);
    expect(transcript(firstSessionFile)).toEqual([
      "[sequence snapshot]",
      "user: Say hello to parser",
      "assistant: reply to: Say hello to parser",
      "[notebook topic: Topic is parser]",
      "user: Summarize parser in one line (template v1).",
      "assistant: reply to: Summarize parser in one line (template v1).",
    ]);
    // A fresh session: nothing of run 1, the snapshot written by setup, the template as edited on disk.
    expect(transcript(secondSessionFile as string)).toEqual([
      "[sequence snapshot]",
      "user: Say hello to parser",
      "assistant: reply to: Say hello to parser",
      "[notebook topic: Topic is parser]",
      "user: Summarize parser in one line (template v2).",
      "assistant: reply to: Summarize parser in one line (template v2).",
    ]);
    expect(
      ui.statusLog.filter((s) => s.key === SEQUENCE_STATUS_KEY && s.text?.startsWith("⟳")).map((s) => s.text),
    ).toEqual([
      "⟳ sequence · run 1/2 · step 1/3 · Say hello to $1",
      "⟳ sequence · run 1/2 · step 2/3 · /notebook write topic Topic is $1",
      "⟳ sequence · run 1/2 · step 3/3 · /oneline $1",
      "⟳ sequence · run 2/2 · step 1/3 · Say hello to $1",
      "⟳ sequence · run 2/2 · step 2/3 · /notebook write topic Topic is $1",
      "⟳ sequence · run 2/2 · step 3/3 · /oneline $1",
    ]);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence finished: 2 runs of 3 steps.", type: "info" });

    // The context of the first session is stale after the reset: pi throws if it is touched. The run above
    // completed without errors, so the runner never touched it after newSession.
    const [firstContext, secondContext] = probe.seen;
    expect(probe.seen).toHaveLength(2);
    expect(() => firstContext?.sessionManager).toThrow(/stale after session replacement/);
    expect(secondContext?.sessionManager.getSessionFile()).toBe(secondSessionFile);
  });

  it("reload restores the snapshot; a branch without a snapshot restores nothing", async () => {
    harness = await createRuntimeHarness({
      extensions: [{ name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }) }) }],
    });
    const { ui } = harness;
    await harness.session.prompt("Warm up");
    const beforeSnapshot = harness.session.sessionManager.getLeafId();

    ui.answers.input.push("1");
    const finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    const editor = recorder(ui);
    type(editor, "/notebook write a b");
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;

    await harness.session.reload();
    ui.answers.select.push("Cancel");
    await harness.session.prompt("/sequence");
    expect(ui.asked.filter((a) => a.kind === "select")).toEqual([
      { kind: "select", title: "Restore last sequence?", options: ["Run", "Edit", "Start new", "Cancel"] },
    ]);

    // Move to a point before the snapshot: that branch has none, so /sequence starts recording right away.
    if (!beforeSnapshot) throw new Error("expected a leaf");
    await harness.session.navigateTree(beforeSnapshot);
    const asked = ui.asked.length;
    const recording = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    expect(ui.asked.length).toBe(asked);
    recorder(ui).handleInput(KEYS.escape);
    await recording;
    expect(harness.errors).toEqual([]);
  });

  it("edits a restored sequence: a middle step changed, one deleted, one inserted; each version runs as edited", async () => {
    harness = await createRuntimeHarness({
      extensions: [{ name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }) }) }],
    });
    const { ui } = harness;
    const userPrompts = () => harness?.prompts.splice(0) ?? [];

    ui.answers.input.push("1");
    let finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    let editor = recorder(ui);
    for (const step of ["Say A", "Say B", "Say C"]) {
      type(editor, step);
      editor.handleInput(KEYS.enter);
    }
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;
    expect(userPrompts()).toEqual(["Say A", "Say B", "Say C"]);

    // Edit the middle step of the restored sequence and run it.
    ui.answers.select.push("Edit");
    ui.answers.input.push("1");
    finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    editor = recorder(ui);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.up);
    expect(editor.getText()).toBe("Say B");
    editor.handleInput(KEYS.ctrlU);
    type(editor, "Say B, edited");
    editor.handleInput(KEYS.enter);
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;
    expect(userPrompts()).toEqual(["Say A", "Say B, edited", "Say C"]);

    // Delete the last step, insert one above the second, and run that.
    ui.answers.select.push("Edit");
    ui.answers.input.push("1");
    finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    editor = recorder(ui);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.ctrlU);
    editor.handleInput(KEYS.backspace);
    expect(editor.getText()).toBe("Say B, edited");
    editor.handleInput(KEYS.altEnter);
    type(editor, "/notebook write inserted yes");
    editor.handleInput(KEYS.enter);
    expect(ui.widgets.get("cairn-sequence")).toEqual([
      "Sequence",
      "1. Say A",
      "2. /notebook write inserted yes",
      "3. Say B, edited",
      EDIT_HINT,
    ]);
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;
    expect(userPrompts()).toEqual(["Say A", "Say B, edited"]);
    expect(transcript(harness.session.sessionFile as string).slice(-6)).toEqual([
      "[sequence snapshot]",
      "user: Say A",
      "assistant: reply to: Say A",
      "[notebook inserted: yes]",
      "user: Say B, edited",
      "assistant: reply to: Say B, edited",
    ]);
    expect(latestSnapshot(harness.session.sessionManager.getBranch())?.steps).toEqual([
      "Say A",
      "/notebook write inserted yes",
      "Say B, edited",
    ]);
    expect(harness.errors).toEqual([]);
  });

  it("Esc asks before discarding an edited recording: No keeps it, Yes discards and runs nothing", async () => {
    harness = await createRuntimeHarness({
      extensions: [{ name: "cairn", factory: createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }) }) }],
    });
    const { ui } = harness;
    ui.answers.input.push("1");
    let finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    let editor = recorder(ui);
    type(editor, "Say A");
    editor.handleInput(KEYS.ctrlEnterKitty);
    await finished;
    const snapshots = () =>
      harness?.session.sessionManager
        .getBranch()
        .filter((entry) => entry.type === "custom" && entry.customType === SEQUENCE_SNAPSHOT_TYPE).length;
    expect(snapshots()).toBe(1);

    ui.answers.select.push("Edit");
    ui.answers.confirm.push(false, true);
    finished = harness.session.prompt("/sequence");
    await ui.until(() => ui.editorFactory !== undefined, "the recorder");
    editor = recorder(ui);
    editor.handleInput(KEYS.up);
    type(editor, " and B");
    const shown = ui.widgetLog.length;
    editor.handleInput(KEYS.escape);
    // Answered No: the recorder shows itself again.
    await ui.until(() => ui.widgetLog.length > shown, "recording again");
    expect(ui.asked.filter((a) => a.kind === "confirm").map((a) => a.title)).toEqual([DISCARD_TITLE]);
    expect(ui.editorFactory).toBeDefined();
    expect(editor.getText()).toBe("Say A and B");

    editor.handleInput(KEYS.escape);
    await finished;
    expect(ui.asked.filter((a) => a.kind === "confirm").map((a) => a.title)).toEqual([DISCARD_TITLE, DISCARD_TITLE]);
    expect(ui.editorFactory).toBeUndefined();
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence recording cancelled.", type: "info" });
    expect(snapshots()).toBe(1);
    expect(harness.prompts).toEqual(["Say A"]);
  });
});
