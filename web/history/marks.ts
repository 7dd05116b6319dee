/** How each timeline mark looks: a glyph (never the only cue: every row also names its kind) and a label. */
export const MARKS: Record<string, { glyph: string; label: string; tone?: "bad" | "ok" | "warn" | "accent" }> = {
  prompt: { glyph: "›", label: "prompt", tone: "accent" },
  reply: { glyph: "‹", label: "reply" },
  call: { glyph: "→", label: "tool call" },
  output: { glyph: "←", label: "output" },
  error: { glyph: "✗", label: "error", tone: "bad" },
  test_pass: { glyph: "✓", label: "check passed", tone: "ok" },
  test_fail: { glyph: "✗", label: "check failed", tone: "bad" },
  test_unknown: { glyph: "?", label: "check", tone: "warn" },
  decision: { glyph: "◆", label: "decision", tone: "accent" },
  resume: { glyph: "⟲", label: "resume point", tone: "accent" },
  note: { glyph: "·", label: "note" },
  file: { glyph: "□", label: "file" },
  command: { glyph: "$", label: "command" },
};

export function markOf(mark: string): { glyph: string; label: string; tone?: string } {
  return MARKS[mark] ?? { glyph: "·", label: mark };
}
