/**
 * Transcript text bound for a terminal, made inert. A transcript holds whatever the agent's tools printed and
 * whatever was pasted: an ESC starts a sequence the terminal obeys (OSC 52 writes the clipboard, OSC 0 the window
 * title, CSI 2J clears the screen), a carriage return or backspace overwrites what was shown. Every C0 and C1
 * control character but newline and tab becomes a visible stand-in instead, so nothing is hidden and nothing runs.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it finds
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** U+2400 + code is the Control Pictures block's glyph for each C0 character (␛ for ESC); DEL has ␡. */
function standIn(c: string): string {
  if (c === "\r\n") return "\n";
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\ufffd";
}

export function terminalText(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, standIn) : text;
}
