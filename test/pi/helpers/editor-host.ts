/**
 * Builds a pi editor component outside pi's TUI: a minimal TUI stand-in (the editor only asks it to re-render and
 * for the terminal size), a plain editor theme, and pi-tui's keybindings plus the two app bindings the recorder
 * cares about, with their pi defaults.
 */
import type { KeybindingsManager as AppKeybindingsManager } from "@earendil-works/pi-coding-agent";
import type { EditorComponent } from "@earendil-works/pi-tui";
import { type EditorTheme, KeybindingsManager, type TUI, TUI_KEYBINDINGS } from "@earendil-works/pi-tui";

type EditorFactory = (tui: TUI, theme: EditorTheme, keybindings: AppKeybindingsManager) => EditorComponent;

const plain = (text: string) => text;
const theme: EditorTheme = {
  borderColor: plain,
  selectList: { selectedPrefix: plain, selectedText: plain, description: plain, scrollInfo: plain, noMatch: plain },
};

export const KEYS = {
  enter: "\r",
  escape: "\x1b",
  backspace: "\x7f",
  ctrlEnterKitty: "\x1b[13;5u",
  ctrlEnterXterm: "\x1b[27;5;13~",
  shiftEnterKitty: "\x1b[13;2u",
  altEnter: "\x1b\r",
  up: "\x1b[A",
  down: "\x1b[B",
  ctrlU: "\x15",
} as const;

export function mountEditor(factory: EditorFactory): EditorComponent {
  const tui = { requestRender() {}, terminal: { rows: 40, columns: 100 } } as unknown as TUI;
  const keybindings = new KeybindingsManager({
    ...TUI_KEYBINDINGS,
    "app.interrupt": { defaultKeys: "escape", description: "Interrupt" },
    "app.message.followUp": { defaultKeys: "alt+enter", description: "Queue follow-up" },
  });
  // pi's app manager extends pi-tui's with config-file handling the editor never uses.
  const editor = factory(tui, theme, keybindings as AppKeybindingsManager);
  // pi wires its own submit handler into every custom editor; the recorder must never call it.
  editor.onSubmit = (text) => {
    throw new Error(`pi's submit handler was called with ${JSON.stringify(text)}`);
  };
  return editor;
}

export function type(editor: EditorComponent, text: string): void {
  for (const char of text) editor.handleInput(char);
}
