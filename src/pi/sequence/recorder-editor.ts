/**
 * The editor that replaces pi's prompt editor while a sequence is being recorded. It is pi's own editor (history,
 * multi-line input, paste handling, slash-command autocomplete) with the keys re-routed: Enter adds the text as a
 * step instead of submitting it, Ctrl+Enter finishes, Esc cancels, and Backspace on an empty editor takes the
 * last step back for editing.
 */
import { CustomEditor, type KeybindingsManager } from "@earendil-works/pi-coding-agent";
import { type EditorTheme, matchesKey, type TUI } from "@earendil-works/pi-tui";

export interface RecorderCallbacks {
  /** Validate and add a step; false keeps the text in the editor for correction. */
  addStep(text: string): boolean;
  /** Finish recording, adding `pending` first when it is not empty; false keeps recording. */
  finish(pending: string): boolean;
  cancel(): void;
  /** Remove the last step and return its text, or undefined when there is none. */
  popStep(): string | undefined;
}

const ENTER = "\r";

export class RecorderEditor extends CustomEditor {
  private readonly callbacks: RecorderCallbacks;
  private readonly keys: KeybindingsManager;

  constructor(tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager, callbacks: RecorderCallbacks) {
    super(tui, theme, keybindings);
    this.callbacks = callbacks;
    this.keys = keybindings;
    // pi keeps an onEscape that is already set, and calls it only when no autocomplete list is open.
    this.onEscape = () => {
      // Cleared first: pi copies the recorder's text into the editor it restores.
      this.setText("");
      callbacks.cancel();
    };
  }

  override handleInput(data: string): void {
    if (matchesKey(data, "ctrl+enter")) {
      this.finishWith(this.getExpandedText());
      return;
    }
    // Alt+Enter would queue the text as a follow-up prompt; in the recorder it adds a step like Enter.
    if (this.keys.matches(data, "tui.input.submit") || this.keys.matches(data, "app.message.followUp")) {
      this.submitStep();
      return;
    }
    if (matchesKey(data, "backspace") && this.getText().length === 0) {
      const step = this.callbacks.popStep();
      if (step !== undefined) {
        this.setText(step);
        return;
      }
    }
    super.handleInput(data);
  }

  private finishWith(pending: string): void {
    // Cleared first: pi copies the recorder's text into the editor it restores.
    this.setText("");
    if (!this.callbacks.finish(pending)) this.setText(pending);
  }

  private submitStep(): void {
    // Terminals that cannot report Ctrl+Enter send a plain Enter for it; Enter on an empty line finishes too.
    if (!this.isShowingAutocomplete() && this.getText().trim().length === 0) {
      this.finishWith("");
      return;
    }
    // Let the editor run its normal submit path (autocomplete, paste expansion, trimming), but into the recorder.
    const submit = this.onSubmit;
    this.onSubmit = (text) => {
      if (!this.callbacks.addStep(text)) this.setText(text);
    };
    try {
      super.handleInput(ENTER);
    } finally {
      this.onSubmit = submit;
    }
  }
}
