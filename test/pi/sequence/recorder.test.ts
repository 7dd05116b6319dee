import { describe, expect, it } from "vitest";
import { SEQUENCE_STATUS_KEY, SEQUENCE_WIDGET_KEY } from "../../../src/pi/sequence/progress.ts";
import { recordSequence } from "../../../src/pi/sequence/recorder.ts";
import { type RecorderCallbacks, RecorderEditor } from "../../../src/pi/sequence/recorder-editor.ts";
import { KEYS, mountEditor, type } from "../helpers/editor-host.ts";
import { command, createFakeContext, type FakeUi } from "../helpers/fake-pi.ts";
import { createTestState } from "../helpers/test-state.ts";

function editorOf(ui: FakeUi) {
  if (!ui.editorFactory) throw new Error("the recorder did not replace the editor");
  return mountEditor(ui.editorFactory);
}

function recordingCallbacks(accept: (text: string) => boolean = () => true) {
  const calls: string[] = [];
  const steps: string[] = ["earlier step"];
  const callbacks: RecorderCallbacks = {
    addStep(text) {
      calls.push(`add:${text}`);
      return accept(text);
    },
    finish(pending) {
      calls.push(`finish:${pending}`);
      return true;
    },
    cancel() {
      calls.push("cancel");
    },
    popStep() {
      calls.push("pop");
      return steps.pop();
    },
  };
  return { calls, callbacks };
}

describe("RecorderEditor keys", () => {
  it("Enter adds the typed text as a step and clears the editor; pi's submit is never called", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    type(editor, "Plan the parser");
    editor.handleInput(KEYS.enter);
    expect(calls).toEqual(["add:Plan the parser"]);
    expect(editor.getText()).toBe("");
  });

  it("a rejected step stays in the editor for correction", () => {
    const { calls, callbacks } = recordingCallbacks(() => false);
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    type(editor, "/publish");
    editor.handleInput(KEYS.enter);
    expect(calls).toEqual(["add:/publish"]);
    expect(editor.getText()).toBe("/publish");
  });

  it.each([
    ["kitty", KEYS.ctrlEnterKitty],
    ["xterm modifyOtherKeys", KEYS.ctrlEnterXterm],
  ])("Ctrl+Enter (%s) finishes, handing over unsubmitted text", (_name, key) => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    type(editor, "last step");
    editor.handleInput(key);
    expect(calls).toEqual(["finish:last step"]);
    expect(editor.getText()).toBe("");
  });

  it("Enter on an empty editor finishes (for terminals that send Ctrl+Enter as Enter)", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    editor.handleInput(KEYS.enter);
    expect(calls).toEqual(["finish:"]);
  });

  it("Esc cancels and leaves nothing behind for pi's editor", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    type(editor, "half typed");
    editor.handleInput(KEYS.escape);
    expect(calls).toEqual(["cancel"]);
    expect(editor.getText()).toBe("");
  });

  it("Shift+Enter makes multi-line steps; Alt+Enter adds like Enter", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    type(editor, "line one");
    editor.handleInput(KEYS.shiftEnterKitty);
    type(editor, "line two");
    editor.handleInput(KEYS.altEnter);
    expect(calls).toEqual(["add:line one\nline two"]);
  });

  it("Backspace on an empty editor takes the last step back for editing", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = mountEditor((tui, theme, kb) => new RecorderEditor(tui, theme, kb, callbacks));
    editor.handleInput(KEYS.backspace);
    expect(calls).toEqual(["pop"]);
    expect(editor.getText()).toBe("earlier step");
    editor.handleInput(KEYS.backspace);
    expect(editor.getText()).toBe("earlier ste");
  });
});

describe("recordSequence", () => {
  it("replaces the editor, validates each step at once, previews the steps as recorded, and restores the editor", async () => {
    const setup = createTestState();
    setup.pi.commandList.push(
      command("publish", "extension", "/elsewhere/publish.ts"),
      command("review", "prompt", "/p/.pi/prompts/review.md"),
    );
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, []);
    const editor = editorOf(ui);

    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(
      "● recording sequence · 0 steps · Enter adds step · Ctrl+Enter finishes · Esc cancels",
    );
    for (const step of ["/readonly", "Plan the implementation for $@"]) {
      type(editor, step);
      editor.handleInput(KEYS.enter);
    }
    type(editor, "/publish");
    editor.handleInput(KEYS.enter);
    expect(ui.notifications.at(-1)).toEqual({
      message:
        "Unsupported step: /publish is an external extension command.\npi-agenticoding cannot execute third-party extension command handlers.",
      type: "error",
    });
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual([
      "Sequence",
      "1. /readonly on",
      "2. Plan the implementation for $@",
      "✗ Unsupported step: /publish is an external extension command.",
      "✗ pi-agenticoding cannot execute third-party extension command handlers.",
    ]);
    expect(editor.getText()).toBe("/publish");

    editor.setText("/review $1");
    editor.handleInput(KEYS.enter);
    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(
      "● recording sequence · 3 steps · Enter adds step · Ctrl+Enter finishes · Esc cancels",
    );
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual([
      "Sequence",
      "1. /readonly on",
      "2. Plan the implementation for $@",
      "3. /review $1",
    ]);
    editor.handleInput(KEYS.ctrlEnterKitty);

    expect(await recording).toEqual(["/readonly on", "Plan the implementation for $@", "/review $1"]);
    expect(ui.editorFactory).toBeUndefined();
    expect(ui.widgets.has(SEQUENCE_WIDGET_KEY)).toBe(false);
    expect(ui.statuses.has(SEQUENCE_STATUS_KEY)).toBe(false);
  });

  it("will not finish an empty sequence; Esc resolves with nothing", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, []);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.ctrlEnterKitty);
    expect(ui.notifications.at(-1)?.type).toBe("warning");
    editor.handleInput(KEYS.escape);
    expect(await recording).toBeUndefined();
  });

  it("edits an existing sequence starting from its steps", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, ["one", "two"]);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "2. two"]);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.backspace);
    editor.handleInput(KEYS.backspace);
    type(editor, "o!");
    editor.handleInput(KEYS.enter);
    editor.handleInput(KEYS.enter);
    expect(await recording).toEqual(["one", "two!"]);
  });
});
