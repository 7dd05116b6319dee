/**
 * The steps being recorded and where the recorder's editor is among them (pure). The editor line always belongs to
 * one slot: an existing step being edited, a new step being inserted before one, or the new step at the end (whose
 * unfinished text is kept as a draft while the user looks at other steps). Every text that becomes a step passes
 * the same check recording uses, whether it is added, edited or inserted.
 */

export type Slot = { kind: "end" } | { kind: "step"; index: number } | { kind: "insert"; index: number };

/** Validates a step's text and returns what to record: the text as typed. */
export type StepCheck = (text: string) => { ok: true; text: string } | { ok: false; message: string };

/** The text the editor shows after an action, or why the action was refused (the editor keeps its text). */
export type RecordingResult = { ok: true; text: string } | { ok: false; message: string };

export interface Recording {
  readonly steps: readonly string[];
  readonly slot: Slot;
  /** Enter: add the new step, or save the edited/inserted one (emptied, it is deleted) and return to the end. */
  submit(text: string): RecordingResult;
  /** ↑/↓: commit the editor's text, then select the previous (-1) or next (+1) step, or the end. */
  move(direction: -1 | 1, text: string): RecordingResult;
  /** Commit the editor's text, then open a new step above the selected one. */
  insertAbove(text: string): RecordingResult;
  /** Backspace on an empty editor: delete the selected step (or, at the end, select the last step to edit it). */
  removeSelected(): RecordingResult;
  /** The steps with the editor's text committed, or why the recording cannot finish yet (a step that no longer
   * passes the check is selected). */
  finish(text: string): { ok: true; steps: string[] } | { ok: false; message: string; text?: string };
  /** Whether anything would be lost by discarding the recording now. */
  changed(text: string): boolean;
}

export const EMPTY_RECORDING = "Add at least one step before finishing, or press Esc to cancel.";

/** Where the editor is after a commit: on a step, or in the gap before step `index` (`steps.length`: the end). */
type Position = { on: "step" | "gap"; index: number };

export function createRecording(restored: readonly string[], check: StepCheck): Recording {
  const initial = [...restored];
  const steps = [...initial];
  let slot: Slot = { kind: "end" };
  let draft = "";

  const end = (): Slot => ({ kind: "end" });
  const stepOrEnd = (index: number): Slot =>
    index >= 0 && index < steps.length
      ? { kind: "step", index }
      : steps.length > 0 && index < 0
        ? { kind: "step", index: 0 }
        : end();

  const textOf = (target: Slot): string => {
    if (target.kind === "end") return draft;
    if (target.kind === "insert") return "";
    return steps[target.index] ?? "";
  };

  const add = (text: string): RecordingResult => {
    const checked = check(text);
    if (!checked.ok) return checked;
    steps.push(checked.text);
    return { ok: true, text: "" };
  };

  /** Apply the editor's text to the current slot and say where that leaves the editor. */
  const commit = (text: string): { ok: true; at: Position } | { ok: false; message: string } => {
    const trimmed = text.trim();
    if (slot.kind === "end") {
      draft = text;
      return { ok: true, at: { on: "gap", index: steps.length } };
    }
    const { index } = slot;
    if (trimmed.length === 0) {
      if (slot.kind === "step") steps.splice(index, 1);
      return { ok: true, at: { on: "gap", index } };
    }
    if (slot.kind === "step" && trimmed === steps[index]) return { ok: true, at: { on: "step", index } };
    const checked = check(trimmed);
    if (!checked.ok) return checked;
    if (slot.kind === "step") steps[index] = checked.text;
    else steps.splice(index, 0, checked.text);
    return { ok: true, at: { on: "step", index } };
  };

  const select = (target: Slot): RecordingResult => {
    slot = target;
    return { ok: true, text: textOf(target) };
  };

  return {
    get steps() {
      return steps;
    },
    get slot() {
      return slot;
    },
    submit(text) {
      if (slot.kind === "end") {
        if (text.trim().length === 0) return { ok: true, text: "" };
        const added = add(text.trim());
        if (added.ok) draft = "";
        return added;
      }
      const committed = commit(text);
      if (!committed.ok) return committed;
      return select(end());
    },
    move(direction, text) {
      const committed = commit(text);
      if (!committed.ok) return committed;
      const { on, index } = committed.at;
      if (direction < 0) return select(stepOrEnd(index - 1));
      return select(stepOrEnd(on === "step" ? index + 1 : index));
    },
    insertAbove(text) {
      if (slot.kind === "end") return { ok: false, message: "Select a step with ↑ first; the new step goes above it." };
      const committed = commit(text);
      if (!committed.ok) return committed;
      return select({ kind: "insert", index: committed.at.index });
    },
    removeSelected() {
      if (slot.kind === "end") {
        if (steps.length === 0) return { ok: true, text: draft };
        return select({ kind: "step", index: steps.length - 1 });
      }
      const { index } = slot;
      if (slot.kind === "step") steps.splice(index, 1);
      return select(stepOrEnd(index - 1));
    },
    finish(text) {
      const committed = slot.kind === "end" ? (text.trim() ? add(text.trim()) : { ok: true as const }) : commit(text);
      if (!committed.ok) return committed;
      if (slot.kind === "end") draft = "";
      slot = end();
      if (steps.length === 0) return { ok: false, message: EMPTY_RECORDING };
      // Restored steps were checked when they were recorded; commands may have changed since.
      for (const [index, step] of steps.entries()) {
        const checked = check(step);
        if (!checked.ok) {
          slot = { kind: "step", index };
          return { ok: false, message: `Step ${index + 1}: ${checked.message}`, text: step };
        }
      }
      return { ok: true, steps: [...steps] };
    },
    changed(text) {
      const pending = text.trim();
      const editing = slot.kind === "step" ? pending !== steps[slot.index] : pending.length > 0;
      const drafted = slot.kind !== "end" && draft.trim().length > 0;
      const edited = steps.length !== initial.length || steps.some((step, index) => step !== initial[index]);
      return editing || drafted || edited;
    },
  };
}
