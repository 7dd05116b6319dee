/**
 * The editor that replaces pi's prompt editor while a sequence is being recorded. It is pi's own editor (multi-line
 * input, paste handling, slash-command autocomplete, undo) with the keys re-routed through pi's keybindings:
 *
 * - Enter adds the text as a step, or saves the step being edited, instead of submitting a prompt; it goes through
 *   the editor's own submit path, so an open autocomplete list is applied first, exactly as in pi;
 * - ↑ on the editor's first line and ↓ on its last line move between steps (the step's text is loaded for editing);
 * - Alt+Enter (pi's follow-up key) opens a new step above the selected one;
 * - Backspace on an empty editor deletes the selected step, or at the end selects the last step;
 * - Ctrl+Enter finishes and Esc cancels.
 */
import type { CustomEditor, KeybindingsManager } from "@earendil-works/pi-coding-agent";
import type { EditorTheme, TUI } from "@earendil-works/pi-tui";
import type { PiHost } from "../host.ts";

/** What the editor shows after an action: new text, or `undefined` to keep what it has (the action was refused). */
export type EditorText = string | undefined;

export interface RecorderCallbacks {
  /** Enter: add or save `text`; an empty text at the end finishes the recording. */
  submit(text: string): EditorText;
  /** Ctrl+Enter: finish, committing `pending` first. */
  finish(pending: string): EditorText;
  /** Esc: cancel, asking first when something would be lost. */
  cancel(pending: string): void;
  /** ↑ (-1) or ↓ (+1) past the editor's first or last line. */
  move(direction: -1 | 1, pending: string): EditorText;
  /** Alt+Enter: open a new step above the selected one. */
  insertAbove(pending: string): EditorText;
  /** Backspace on an empty editor. */
  removeSelected(): EditorText;
  /** The terminal changed width: the footer's wording may have to change with it. */
  resized(): void;
}

/** The recorder's editor: pi's own (the running pi's class, from `host`), with the recorder's keys. */
export interface RecorderEditor extends CustomEditor {
  /** How pi's keybindings spell the key that inserts a step, for the footer. */
  insertKeyText(): string;
}

export function createRecorderEditor(
  host: PiHost,
  tui: TUI,
  theme: EditorTheme,
  keybindings: KeybindingsManager,
  callbacks: RecorderCallbacks,
): RecorderEditor {
  return new (recorderEditorClass(host))(tui, theme, keybindings, callbacks);
}

/** The class is made from the host's `CustomEditor`, which only the running pi can hand over. */
function recorderEditorClass(host: PiHost) {
  const { matchesKey } = host;
  return class extends host.CustomEditor implements RecorderEditor {
    private readonly callbacks: RecorderCallbacks;
    private readonly keys: KeybindingsManager;
    private recorderWidth: number | undefined;

    constructor(tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager, callbacks: RecorderCallbacks) {
      super(tui, theme, keybindings);
      this.callbacks = callbacks;
      this.keys = keybindings;
      // pi keeps an onEscape that is already set, and calls it only when no autocomplete list is open.
      this.onEscape = () => callbacks.cancel(this.getExpandedText());
    }

    /** How pi's keybindings spell the key that inserts a step, for the footer. */
    insertKeyText(): string {
      const [key] = this.keys.getKeys("app.message.followUp");
      return key
        ? key
            .split("+")
            .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
            .join("+")
        : "Alt+Enter";
    }

    override render(width: number): string[] {
      if (this.recorderWidth !== undefined && width !== this.recorderWidth)
        queueMicrotask(() => this.callbacks.resized());
      this.recorderWidth = width;
      return super.render(width);
    }

    override handleInput(data: string): void {
      const idle = !this.isShowingAutocomplete();
      if (matchesKey(data, "ctrl+enter")) {
        this.show(this.callbacks.finish(this.getExpandedText()));
      } else if (this.keys.matches(data, "app.message.followUp")) {
        this.show(this.callbacks.insertAbove(this.getExpandedText()));
      } else if (this.keys.matches(data, "tui.input.submit")) {
        this.submitThrough(data);
      } else if (idle && this.keys.matches(data, "tui.editor.cursorUp") && this.getCursor().line === 0) {
        this.show(this.callbacks.move(-1, this.getExpandedText()));
      } else if (
        idle &&
        this.keys.matches(data, "tui.editor.cursorDown") &&
        this.getCursor().line === this.getLines().length - 1
      ) {
        this.show(this.callbacks.move(1, this.getExpandedText()));
      } else if (this.keys.matches(data, "tui.editor.deleteCharBackward") && this.getText().length === 0) {
        this.show(this.callbacks.removeSelected());
      } else {
        super.handleInput(data);
      }
    }

    private show(text: EditorText): void {
      if (text !== undefined) this.setText(text);
    }

    /**
     * Let the editor run its normal submit path for this key (autocomplete, paste expansion, trimming), but into the
     * recorder instead of pi. The editor clears itself before calling `onSubmit`; a refused step is put back.
     */
    private submitThrough(data: string): void {
      const submit = this.onSubmit;
      this.onSubmit = (text) => {
        const next = this.callbacks.submit(text);
        this.setText(next ?? text);
      };
      try {
        super.handleInput(data);
      } finally {
        this.onSubmit = submit;
      }
    }
  };
}
