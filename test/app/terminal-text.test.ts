/** Transcript text bound for a terminal: every control character that could act on the terminal made visible. */
import { describe, expect, it } from "vitest";
import { shapeAnswer } from "../../src/app/shape/shape.ts";
import { terminalText } from "../../src/app/shape/terminal-text.ts";

describe("terminalText", () => {
  it.each([
    ["OSC 52 clipboard write", "a\u001b]52;c;aGk=\u0007b", "a\u241b]52;c;aGk=\u2407b"],
    ["OSC 0 window title", "\u001b]0;pwned\u001b\\", "\u241b]0;pwned\u241b\\"],
    ["CSI clear screen", "\u001b[2J\u001b[H", "\u241b[2J\u241b[H"],
    ["C1 CSI", "x\u009b31my", "x\ufffd31my"],
    ["backspace overwrite", "safe\b\b\b\bevil", "safe\u2408\u2408\u2408\u2408evil"],
    ["lone carriage return", "done\rFAIL", "done\u240dFAIL"],
    ["DEL", "a\u007fb", "a\u2421b"],
  ])("%s", (_, input, output) => {
    expect(terminalText(input)).toBe(output);
  });

  it("keeps newlines, tabs and text, and a CRLF line end becomes a newline", () => {
    expect(terminalText("a\tb\nc\r\nd ✓ «x»")).toBe("a\tb\nc\nd ✓ «x»");
  });

  it("the shaping step reaches every string of an answer bound for a terminal, and leaves data as it is", () => {
    const answer = { n: 1, hits: [{ text: "\u001b[2J", meta: { out: "\u0007" } }], none: null };
    expect(shapeAnswer(answer, { exit: "terminal" })).toEqual({
      n: 1,
      hits: [{ text: "\u241b[2J", meta: { out: "\u2407" } }],
      none: null,
    });
    expect(shapeAnswer(answer, { exit: "data" })).toEqual(answer);
  });
});
