/**
 * The sequence's footer status and preview text (pure), as seed 001 shows them, plus the marks and hints for
 * editing a step in place.
 */
import { READONLY_STATUS_TEXT } from "../readonly/readonly-state.ts";
import type { CairnState } from "../state.ts";
import type { Slot } from "./recording.ts";
import type { SequenceRun } from "./types.ts";

export const SEQUENCE_STATUS_KEY = "cairn-sequence";
export const SEQUENCE_WIDGET_KEY = "cairn-sequence";

/**
 * The longest of a status's wordings that fits `width` columns (pi cuts a longer footer line short, losing its
 * end): the seed's wording first, then shorter ones that keep every key. Without a width, the first.
 */
export function fitStatus(wordings: readonly string[], width: number | undefined): string {
  const fits = wordings.find((text) => width === undefined || columnsOf(text) <= width);
  return fits ?? wordings[wordings.length - 1] ?? "";
}

/**
 * Columns the sequence's status has in the footer: pi puts every extension's status on one line, and cairn's
 * read-only status comes first.
 */
export function statusRoom(state: CairnState): number | undefined {
  const columns = state.services.columns();
  if (columns === undefined) return undefined;
  return columns - (state.readonly.enabled ? columnsOf(READONLY_STATUS_TEXT) + 1 : 0);
}

/** Columns a status takes: one per code point, two for an emoji (the footer's `🔒`). */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const ch of text) columns += /\p{Extended_Pictographic}/u.test(ch) && ch !== "↑" && ch !== "↓" ? 2 : 1;
  return columns;
}

export function recordingStatus(stepCount: number, width?: number): string {
  const steps = `${stepCount} ${stepCount === 1 ? "step" : "steps"}`;
  return fitStatus(
    [
      `● recording sequence · ${steps} · Enter adds step · Ctrl+Enter finishes · Esc cancels`,
      `● recording · ${steps} · Enter adds · Ctrl+Enter finishes · Esc cancels`,
      `● recording · ${steps} · Enter add · Ctrl+Enter done · Esc cancel`,
      `● ${steps} · Enter add · Ctrl+Enter done · Esc cancel`,
    ],
    width,
  );
}

/** The footer while the editor is on an existing step or a step being inserted, rather than on a new last step. */
export function editingStatus(slot: Slot, stepCount: number, insertKey = "Alt+Enter", width?: number): string {
  if (slot.kind === "step") {
    const n = `${slot.index + 1}`;
    return fitStatus(
      [
        `● editing step ${n} of ${stepCount} · Enter saves (emptied: deletes) · ↑↓ moves · ${insertKey} inserts above · Esc cancels`,
        `● editing step ${n} of ${stepCount} · Enter saves (empty: deletes) · ↑↓ moves · ${insertKey} inserts · Esc cancels`,
        `● step ${n}/${stepCount} · Enter saves (empty: deletes) · ↑↓ · ${insertKey} inserts · Esc cancels`,
        `● step ${n}/${stepCount} · Enter save · ↑↓ move · ${insertKey} insert · Esc cancel`,
      ],
      width,
    );
  }
  if (slot.kind === "insert") {
    const n = `${slot.index + 1}`;
    return fitStatus(
      [
        `● inserting step ${n} · Enter inserts · ↑↓ moves · Ctrl+Enter finishes · Esc cancels`,
        `● inserting step ${n} · Enter inserts · ↑↓ moves · Ctrl+Enter done · Esc cancels`,
        `● inserting ${n} · Enter insert · ↑↓ · Ctrl+Enter done · Esc cancel`,
      ],
      width,
    );
  }
  return recordingStatus(stepCount, width);
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

/** `⟳ sequence · run 2/5 · step 3/4 · /handoff execution`, the step's text shortened to fit `width`. */
/** The steps as the preview numbers them, with no marks or hints: what a restored or finished sequence will run. */
export function sequenceLines(steps: readonly string[]): string[] {
  return ["Sequence", ...steps.map((step, index) => `${index + 1}. ${oneLine(step, 200)}`)];
}

export function progressStatus(run: SequenceRun, width?: number): string {
  const step = run.steps[run.stepIndex] ?? "";
  const head = `⟳ sequence · run ${run.runIndex + 1}/${run.totalRuns} · step ${run.stepIndex + 1}/${run.steps.length} · `;
  const room = width === undefined ? 60 : Math.max(12, Math.min(60, width - columnsOf(head)));
  return `${head}${oneLine(step, room)}`;
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
