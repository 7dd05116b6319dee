import { describe, expect, it } from "vitest";
import { EDIT_HINT, SEQUENCE_STATUS_KEY, SEQUENCE_WIDGET_KEY } from "../../../src/pi/sequence/progress.ts";
import { DISCARD_TITLE, recordSequence } from "../../../src/pi/sequence/recorder.ts";
import { createRecorderEditor, type RecorderCallbacks } from "../../../src/pi/sequence/recorder-editor.ts";
import { KEYS, mountEditor, type } from "../helpers/editor-host.ts";
import { command, createFakeContext, type FakeUi } from "../helpers/fake-pi.ts";
import { piHost } from "../helpers/pi-host.ts";
import { createTestState } from "../helpers/test-state.ts";

function editorOf(ui: FakeUi) {
  if (!ui.editorFactory) throw new Error("the recorder did not replace the editor");
  return mountEditor(ui.editorFactory);
}

/** Callbacks that log each call and answer with `answer` (the text the editor should show next). */
function recordingCallbacks(answer: (call: string) => string | undefined = () => "") {
  const calls: string[] = [];
  const log = (call: string) => {
    calls.push(call);
    return answer(call);
  };
  const callbacks: RecorderCallbacks = {
    submit: (text) => log(`submit:${text}`),
    finish: (pending) => log(`finish:${pending}`),
    cancel: (pending) => {
      log(`cancel:${pending}`);
    },
    move: (direction, pending) => log(`move:${direction}:${pending}`),
    insertAbove: (pending) => log(`insert:${pending}`),
    removeSelected: () => log("remove"),
    resized: () => {
      log("resized");
    },
  };
  return { calls, callbacks };
}

function recorderEditor(callbacks: RecorderCallbacks) {
  return mountEditor((tui, theme, kb) => createRecorderEditor(piHost, tui, theme, kb, callbacks));
}

describe("RecorderEditor keys", () => {
  it("Enter submits the typed text into the recorder through the editor's submit path; pi's submit is never called", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = recorderEditor(callbacks);
    type(editor, "  Plan the parser  ");
    editor.handleInput(KEYS.enter);
    expect(calls).toEqual(["submit:Plan the parser"]);
    expect(editor.getText()).toBe("");
  });

  it("a refused submit puts the text back for correction", () => {
    const { calls, callbacks } = recordingCallbacks(() => undefined);
    const editor = recorderEditor(callbacks);
    type(editor, "/publish");
    editor.handleInput(KEYS.enter);
    expect(calls).toEqual(["submit:/publish"]);
    expect(editor.getText()).toBe("/publish");
  });

  it.each([
    ["kitty", KEYS.ctrlEnterKitty],
    ["xterm modifyOtherKeys", KEYS.ctrlEnterXterm],
  ])("Ctrl+Enter (%s) finishes, handing over unsubmitted text", (_name, key) => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = recorderEditor(callbacks);
    type(editor, "last step");
    editor.handleInput(key);
    expect(calls).toEqual(["finish:last step"]);
    expect(editor.getText()).toBe("");
  });

  it("Esc hands the pending text to cancel (which may ask first)", () => {
    const { calls, callbacks } = recordingCallbacks();
    const editor = recorderEditor(callbacks);
    type(editor, "half typed");
    editor.handleInput(KEYS.escape);
    expect(calls).toEqual(["cancel:half typed"]);
  });

  it("↑ on the first line and ↓ on the last line move between steps, loading the step's text", () => {
    const { calls, callbacks } = recordingCallbacks((call) => (call.startsWith("move:-1") ? "step two" : "draft"));
    const editor = recorderEditor(callbacks);
    type(editor, "line one");
    editor.handleInput(KEYS.shiftEnterKitty);
    type(editor, "line two");
    // Inside a multi-line text the arrows move the cursor first.
    editor.handleInput(KEYS.up);
    expect(calls).toEqual([]);
    editor.handleInput(KEYS.up);
    expect(calls).toEqual(["move:-1:line one\nline two"]);
    expect(editor.getText()).toBe("step two");
    editor.handleInput(KEYS.down);
    expect(calls.at(-1)).toBe("move:1:step two");
    expect(editor.getText()).toBe("draft");
  });

  it("Alt+Enter opens a step above; Backspace on an empty editor removes the selected step", () => {
    const { calls, callbacks } = recordingCallbacks((call) => (call === "remove" ? "previous step" : ""));
    const editor = recorderEditor(callbacks);
    type(editor, "selected step");
    editor.handleInput(KEYS.altEnter);
    expect(calls).toEqual(["insert:selected step"]);
    editor.handleInput(KEYS.backspace);
    expect(calls.at(-1)).toBe("remove");
    expect(editor.getText()).toBe("previous step");
    editor.handleInput(KEYS.backspace);
    expect(editor.getText()).toBe("previous ste");
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
      "1. /readonly",
      "2. Plan the implementation for $@",
      EDIT_HINT,
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
      "1. /readonly",
      "2. Plan the implementation for $@",
      "3. /review $1",
      EDIT_HINT,
    ]);
    editor.handleInput(KEYS.ctrlEnterKitty);

    expect(await recording).toEqual(["/readonly", "Plan the implementation for $@", "/review $1"]);
    expect(ui.editorFactory).toBeUndefined();
    expect(ui.widgets.has(SEQUENCE_WIDGET_KEY)).toBe(false);
    expect(ui.statuses.has(SEQUENCE_STATUS_KEY)).toBe(false);
  });

  it("will not finish an empty sequence; Esc with nothing recorded cancels without asking", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, []);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.ctrlEnterKitty);
    expect(ui.notifications.at(-1)?.type).toBe("warning");
    editor.handleInput(KEYS.escape);
    expect(await recording).toBeUndefined();
    expect(ui.asked).toEqual([]);
  });

  it("edits a middle step in place: ↑ selects it, the edit is checked, Enter saves it", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, ["one", "two", "three"]);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "2. two", "3. three", EDIT_HINT]);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.up);
    expect(editor.getText()).toBe("two");
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "› 2. two", "3. three"]);
    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(
      "● editing step 2 of 3 · Enter saves (emptied: deletes) · ↑↓ moves · Alt+Enter inserts above · Esc cancels",
    );

    editor.handleInput(KEYS.ctrlU);
    type(editor, "/publish now");
    editor.handleInput(KEYS.enter);
    expect(ui.notifications.at(-1)?.message).toBe(
      "Unsupported step: /publish is not a known command.\nSequences can run prompts, /readonly, /handoff, /notebook, /compact, prompt templates and skills.",
    );
    expect(editor.getText()).toBe("/publish now");
    editor.handleInput(KEYS.ctrlU);
    type(editor, "two, edited");
    editor.handleInput(KEYS.enter);
    expect(editor.getText()).toBe("");
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual([
      "Sequence",
      "1. one",
      "2. two, edited",
      "3. three",
      EDIT_HINT,
    ]);
    editor.handleInput(KEYS.enter);
    expect(await recording).toEqual(["one", "two, edited", "three"]);
  });

  it("deletes a step (emptied, or Backspace on an empty editor) and inserts one above the selected step", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, ["one", "two", "three"]);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.ctrlU);
    editor.handleInput(KEYS.enter);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "2. three", EDIT_HINT]);

    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.altEnter);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "› 2. (new step)", "3. three"]);
    expect(ui.statuses.get(SEQUENCE_STATUS_KEY)).toBe(
      "● inserting step 2 · Enter inserts · ↑↓ moves · Ctrl+Enter finishes · Esc cancels",
    );
    type(editor, "two again");
    editor.handleInput(KEYS.enter);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "2. two again", "3. three", EDIT_HINT]);

    // Backspace on the empty new-step line selects the last step; clearing it and Backspace again deletes it.
    editor.handleInput(KEYS.backspace);
    expect(editor.getText()).toBe("three");
    editor.handleInput(KEYS.ctrlU);
    editor.handleInput(KEYS.backspace);
    expect(editor.getText()).toBe("two again");
    editor.handleInput(KEYS.ctrlEnterKitty);
    expect(await recording).toEqual(["one", "two again"]);
  });

  it("Esc asks before discarding a changed recording; No keeps recording, Yes discards", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    ui.answers.confirm.push(false, true);
    const recording = recordSequence(ctx, setup.state, ["one"]);
    const editor = editorOf(ui);
    type(editor, "two");
    editor.handleInput(KEYS.enter);
    const shown = ui.widgetLog.length;
    editor.handleInput(KEYS.escape);
    // Answered No: the recorder shows itself again.
    await ui.until(() => ui.widgetLog.length > shown, "recording again");
    expect(ui.asked).toEqual([{ kind: "confirm", title: DISCARD_TITLE }]);
    expect(ui.editorFactory).toBeDefined();
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)).toEqual(["Sequence", "1. one", "2. two", EDIT_HINT]);

    editor.handleInput(KEYS.escape);
    expect(await recording).toBeUndefined();
    expect(ui.asked).toHaveLength(2);
    expect(ui.notifications.at(-1)).toEqual({ message: "Sequence recording cancelled.", type: "info" });
  });

  it("Esc on a restored sequence left as it was does not ask", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, ["one", "two"]);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.up);
    editor.handleInput(KEYS.down);
    editor.handleInput(KEYS.escape);
    expect(await recording).toBeUndefined();
    expect(ui.asked).toEqual([]);
  });

  it("a restored step that no longer resolves is selected when finishing, with the reason", async () => {
    const setup = createTestState();
    const { ctx, ui } = createFakeContext();
    const recording = recordSequence(ctx, setup.state, ["one", "/gone x", "three"]);
    const editor = editorOf(ui);
    editor.handleInput(KEYS.ctrlEnterKitty);
    expect(editor.getText()).toBe("/gone x");
    expect(ui.notifications.at(-1)?.message).toMatch(/^Step 2: Unsupported step: \/gone is not a known command\./);
    expect(ui.widgets.get(SEQUENCE_WIDGET_KEY)?.slice(0, 4)).toEqual([
      "Sequence",
      "1. one",
      "› 2. /gone x",
      "3. three",
    ]);
    editor.handleInput(KEYS.ctrlU);
    type(editor, "two");
    editor.handleInput(KEYS.ctrlEnterKitty);
    expect(await recording).toEqual(["one", "two", "three"]);
  });
});
