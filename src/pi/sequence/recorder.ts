/**
 * Recording mode: swaps pi's editor for the recorder, keeps the footer status and the step preview current, and
 * checks every step the moment it is added, edited or inserted. Esc asks before it throws away anything that would
 * be lost. Resolves with the recorded steps, or undefined when the user cancels.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";
import { currentCatalog } from "./catalog.ts";
import {
  editingStatus,
  type PreviewStyle,
  previewLines,
  SEQUENCE_STATUS_KEY,
  SEQUENCE_WIDGET_KEY,
  statusRoom,
} from "./progress.ts";
import { createRecorderEditor, type RecorderCallbacks, type RecorderEditor } from "./recorder-editor.ts";
import { createRecording, EMPTY_RECORDING, type RecordingResult, type StepCheck } from "./recording.ts";
import { resolveStep } from "./resolve.ts";

export const DISCARD_TITLE = "Discard this sequence recording?";

export function recordSequence(
  ctx: ExtensionCommandContext,
  state: CairnState,
  initialSteps: readonly string[],
): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    // Checked against the commands pi reports right now, so unsupported entries fail while the user is here; a step
    // is kept as typed.
    const check: StepCheck = (text) => {
      const resolution = resolveStep(text, currentCatalog(state));
      return resolution.ok ? { ok: true, text } : resolution;
    };
    const recording = createRecording(initialSteps, check);
    const previousEditor = ctx.ui.getEditorComponent();
    const theme = ctx.ui.theme;
    const style: PreviewStyle = {
      selected: (text) => theme.bold(theme.fg("accent", text)),
      muted: (text) => theme.fg("dim", text),
    };
    let problem: string | undefined;
    let editor: RecorderEditor | undefined;
    let confirming = false;

    const render = () => {
      ctx.ui.setStatus(
        SEQUENCE_STATUS_KEY,
        editingStatus(recording.slot, recording.steps.length, editor?.insertKeyText(), statusRoom(state)),
      );
      ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, previewLines(recording.steps, problem, recording.slot, style));
    };
    const close = (result: string[] | undefined) => {
      // Cleared first: pi copies the recorder's text into the editor it restores.
      editor?.setText("");
      ctx.ui.setEditorComponent(previousEditor);
      ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, undefined);
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
      resolve(result);
    };
    /** Show an action's outcome; a refusal is an error in the preview and a notification. */
    const apply = (result: RecordingResult): string | undefined => {
      if (!result.ok) {
        problem = result.message;
        ctx.ui.notify(result.message, "error");
        render();
        return undefined;
      }
      problem = undefined;
      render();
      return result.text;
    };
    const finish = (pending: string): string | undefined => {
      const result = recording.finish(pending);
      if (result.ok) {
        close(result.steps);
        return "";
      }
      problem = result.message;
      ctx.ui.notify(result.message, result.message === EMPTY_RECORDING ? "warning" : "error");
      render();
      return result.text;
    };
    const cancel = async (pending: string) => {
      if (confirming) return;
      if (recording.changed(pending)) {
        confirming = true;
        const count = recording.steps.length;
        const discard = await ctx.ui.confirm(
          DISCARD_TITLE,
          `${count} ${count === 1 ? "step" : "steps"} and any unsaved edit will be lost.`,
        );
        confirming = false;
        if (!discard) {
          render();
          return;
        }
      }
      ctx.ui.notify("Sequence recording cancelled.", "info");
      close(undefined);
    };

    const callbacks: RecorderCallbacks = {
      submit(text) {
        if (recording.slot.kind === "end" && text.trim().length === 0) return finish("");
        return apply(recording.submit(text));
      },
      finish,
      cancel(pending) {
        void cancel(pending);
      },
      move: (direction, pending) => apply(recording.move(direction, pending)),
      insertAbove: (pending) => apply(recording.insertAbove(pending)),
      removeSelected: () => apply(recording.removeSelected()),
      resized: render,
    };

    ctx.ui.setEditorComponent((tui, editorTheme, keybindings) => {
      editor = createRecorderEditor(state.services.host, tui, editorTheme, keybindings, callbacks);
      return editor;
    });
    render();
  });
}
