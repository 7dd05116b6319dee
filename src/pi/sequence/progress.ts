/**
 * The sequence's footer status and preview text (pure), exactly as seed 001 shows them.
 */
import type { SequenceRun } from "./types.ts";

export const SEQUENCE_STATUS_KEY = "cairn-sequence";
export const SEQUENCE_WIDGET_KEY = "cairn-sequence";

export function recordingStatus(stepCount: number): string {
  const steps = `${stepCount} ${stepCount === 1 ? "step" : "steps"}`;
  return `● recording sequence · ${steps} · Enter adds step · Ctrl+Enter finishes · Esc cancels`;
}

/** Raw authored steps, numbered; slash commands stay unexpanded. */
export function previewLines(steps: readonly string[], problem?: string): string[] {
  const lines = ["Sequence", ...steps.map((step, index) => `${index + 1}. ${oneLine(step, 200)}`)];
  if (steps.length === 0) lines.push("(no steps yet: type a prompt or a slash command and press Enter)");
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
