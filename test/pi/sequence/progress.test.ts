import { describe, expect, it } from "vitest";
import {
  columnsOf,
  editingStatus,
  progressStatus,
  recordingStatus,
  sequenceLines,
  statusRoom,
} from "../../../src/pi/sequence/progress.ts";
import type { SequenceRun } from "../../../src/pi/sequence/types.ts";
import { createTestState } from "../helpers/test-state.ts";

const SEED_RECORDING = "● recording sequence · 3 steps · Enter adds step · Ctrl+Enter finishes · Esc cancels";
const run = (stepIndex: number, steps: string[], runIndex = 1, totalRuns = 5): SequenceRun => ({
  id: "r",
  sequenceId: "s",
  steps,
  args: [],
  totalRuns,
  runIndex,
  stepIndex,
});

describe("footer statuses", () => {
  it("use the seed's wording wherever it fits", () => {
    expect(recordingStatus(3)).toBe(SEED_RECORDING);
    expect(recordingStatus(3, 120)).toBe(SEED_RECORDING);
    expect(recordingStatus(3, columnsOf(SEED_RECORDING))).toBe(SEED_RECORDING);
    expect(progressStatus(run(2, ["a", "b", "/handoff execution", "d"]), 120)).toBe(
      "⟳ sequence · run 2/5 · step 3/4 · /handoff execution",
    );
  });

  it("fit 80 columns, and 80 beside the read-only status, keeping every key", () => {
    for (const width of [80, 80 - 12]) {
      const recording = recordingStatus(3, width);
      expect(columnsOf(recording)).toBeLessThanOrEqual(width);
      for (const key of ["3 steps", "Enter", "Ctrl+Enter", "Esc"]) expect(recording).toContain(key);
      const editing = editingStatus({ kind: "step", index: 1 }, 3, "Alt+Enter", width);
      expect(columnsOf(editing)).toBeLessThanOrEqual(width);
      for (const key of ["2", "Enter", "↑↓", "Alt+Enter", "Esc"]) expect(editing).toContain(key);
      const inserting = editingStatus({ kind: "insert", index: 0 }, 3, "Alt+Enter", width);
      expect(columnsOf(inserting)).toBeLessThanOrEqual(width);
    }
    const long = progressStatus(run(0, [`Plan the implementation for ${"x".repeat(80)}`]), 80);
    expect(columnsOf(long)).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^⟳ sequence · run 2\/5 · step 1\/1 · Plan the implementation for x+…$/);
  });

  it("leave room for cairn's read-only status, which pi puts first on the same line", () => {
    const { state } = createTestState();
    Object.assign(state.services, { columns: () => 80 });
    expect(statusRoom(state)).toBe(80);
    state.readonly.enabled = true;
    expect(statusRoom(state)).toBe(80 - columnsOf("🔒 readonly") - 1);
  });

  it("list a sequence's steps as typed, numbered, for the restore prompt", () => {
    expect(sequenceLines(["/readonly", "Plan the implementation for $@", "/handoff execution"])).toEqual([
      "Sequence",
      "1. /readonly",
      "2. Plan the implementation for $@",
      "3. /handoff execution",
    ]);
  });
});
