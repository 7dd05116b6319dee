/**
 * Recording mode: swaps pi's editor for the recorder, keeps the footer status and the raw-step preview current,
 * and validates every step the moment it is entered. Resolves with the recorded steps, or undefined when the user
 * cancels.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";
import { currentCatalog } from "./catalog.ts";
import { previewLines, recordingStatus, SEQUENCE_STATUS_KEY, SEQUENCE_WIDGET_KEY } from "./progress.ts";
import { type RecorderCallbacks, RecorderEditor } from "./recorder-editor.ts";
import { recordedText, resolveStep } from "./resolve.ts";

export function recordSequence(
  ctx: ExtensionCommandContext,
  state: CairnState,
  initialSteps: readonly string[],
): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const steps = [...initialSteps];
    let problem: string | undefined;
    const previousEditor = ctx.ui.getEditorComponent();

    const render = () => {
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, recordingStatus(steps.length));
      ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, previewLines(steps, problem));
    };
    const close = (result: string[] | undefined) => {
      ctx.ui.setEditorComponent(previousEditor);
      ctx.ui.setWidget(SEQUENCE_WIDGET_KEY, undefined);
      ctx.ui.setStatus(SEQUENCE_STATUS_KEY, undefined);
      resolve(result);
    };
    const addStep = (text: string): boolean => {
      const step = text.trim();
      if (step.length === 0) return true;
      // Validated against the commands pi reports right now, so unsupported entries fail while the user is here.
      const resolution = resolveStep(step, currentCatalog(state));
      if (!resolution.ok) {
        problem = resolution.message;
        ctx.ui.notify(resolution.message, "error");
        render();
        return false;
      }
      steps.push(recordedText(resolution.step));
      problem = undefined;
      render();
      return true;
    };
    const callbacks: RecorderCallbacks = {
      addStep,
      finish(pending) {
        if (pending.trim().length > 0 && !addStep(pending)) return false;
        if (steps.length === 0) {
          ctx.ui.notify("Add at least one step before finishing, or press Esc to cancel.", "warning");
          return false;
        }
        close(steps);
        return true;
      },
      cancel() {
        ctx.ui.notify("Sequence recording cancelled.", "info");
        close(undefined);
      },
      popStep() {
        const step = steps.pop();
        problem = undefined;
        render();
        return step;
      },
    };

    ctx.ui.setEditorComponent((tui, theme, keybindings) => new RecorderEditor(tui, theme, keybindings, callbacks));
    render();
  });
}
