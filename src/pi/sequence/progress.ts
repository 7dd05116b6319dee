/**
 * The sequence's footer status and preview text (pure), as seed 001 shows them, plus the marks and hints for
 * editing a step in place.
 */
import type { Slot } from "./recording.ts";
import type { SequenceRun } from "./types.ts";

export const SEQUENCE_STATUS_KEY = "cairn-sequence";
export const SEQUENCE_WIDGET_KEY = "cairn-sequence";

export function recordingStatus(stepCount: number): string {
  const steps = `${stepCount} ${stepCount === 1 ? "step" : "steps"}`;
  return `● recording sequence · ${steps} · Enter adds step · Ctrl+Enter finishes · Esc cancels`;
}

/** The footer while the editor is on an existing step or a step being inserted, rather than on a new last step. */
export function editingStatus(slot: Slot, stepCount: number, insertKey = "Alt+Enter"): string {
  if (slot.kind === "step") {
    return `● editing step ${slot.index + 1} of ${stepCount} · Enter saves (emptied: deletes) · ↑↓ moves · ${insertKey} inserts above · Esc cancels`;
  }
  if (slot.kind === "insert") {
    return `● inserting step ${slot.index + 1} · Enter inserts · ↑↓ moves · Ctrl+Enter finishes · Esc cancels`;
  }
  return recordingStatus(stepCount);
}

export interface PreviewStyle {
  /** The step the editor is on. */
  selected(text: string): string;
  /** Hints. */
  muted(text: string): string;
}

const PLAIN: Readonly<PreviewStyle> = { selected: (text) => text, muted: (text) => text };

export const EDIT_HINT = "↑ selects a step to edit, delete or insert above";
const NEW_STEP = "(new step)";

/**
 * Raw authored steps, numbered; slash commands stay unexpanded. The step the editor is on (or the step being
 * inserted) is marked with `›`.
 */
export function previewLines(
  steps: readonly string[],
  problem?: string,
  slot: Slot = { kind: "end" },
  style: PreviewStyle = PLAIN,
): string[] {
  const rows = steps.map((step) => oneLine(step, 200));
  if (slot.kind === "insert") rows.splice(slot.index, 0, NEW_STEP);
  const marked = slot.kind === "end" ? -1 : slot.index;
  const lines = [
    "Sequence",
    ...rows.map((row, index) => (index === marked ? style.selected(`› ${index + 1}. ${row}`) : `${index + 1}. ${row}`)),
  ];
  if (steps.length === 0 && slot.kind === "end") {
    lines.push("(no steps yet: type a prompt or a slash command and press Enter)");
  } else if (slot.kind === "end") {
    lines.push(style.muted(EDIT_HINT));
  }
  if (problem) lines.push(...problem.split("\n").map((line) => `✗ ${line}`));
  return lines;
}

export function progressStatus(run: SequenceRun): string {
  const step = run.steps[run.stepIndex] ?? "";
  return `⟳ sequence · run ${run.runIndex + 1}/${run.totalRuns} · step ${run.stepIndex + 1}/${run.steps.length} · ${oneLine(step, 60)}`;
}

export function position(run: SequenceRun): string {
  return `run ${run.runIndex + 1}/${run.totalRuns}, step ${run.stepIndex + 1}/${run.steps.length}`;
}

/** First line of a step, shortened, with a marker when lines were dropped. */
export function oneLine(step: string, max: number): string {
  const lines = step.split("\n");
  let line = lines[0] ?? "";
  if (lines.length > 1) line += " …";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
