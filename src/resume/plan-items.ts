/**
 * Plan items: the agent's to-do list (`TodoWrite`, Codex `update_plan`, any todo tool with a list of items) and
 * `- [ ]` / `- [x]` lines in markdown files it wrote, edited or read; the last state of each item wins
 * (resume-method §4.4, the cheap equivalent of a feature list or todo.md).
 */
import { isPlanFile } from "../topology/decisions.ts";
import { type TextEdit, toolInputOfEvent } from "../topology/tool-call-input.ts";
import type { SessionEvent } from "../topology/types.ts";
import { displayPath } from "./file-states.ts";
import type { LedgerPlanItem, PlanState } from "./ledger-types.ts";

const CHECKBOX = /^\s*(?:[-*+]|\d+\.)\s+\[( |x|X|~|-|\/)\]\s+(.+?)\s*$/;
const MARKDOWN = /\.(md|markdown|mdx)$/i;

type Items = Map<string, { state: PlanState; ordinal: number; cites: string[] }>;

function checkboxes(text: string): Array<{ text: string; state: PlanState }> {
  const out: Array<{ text: string; state: PlanState }> = [];
  for (const line of text.split("\n")) {
    const m = CHECKBOX.exec(line);
    if (!m) continue;
    const mark = m[1]!;
    out.push({
      text: m[2]!,
      state: mark === "x" || mark === "X" ? "completed" : mark === " " ? "pending" : "in_progress",
    });
  }
  return out;
}

function stateOf(status: string): PlanState {
  const s = status.toLowerCase();
  if (s === "completed" || s === "done" || s === "complete") return "completed";
  if (s === "in_progress" || s === "in-progress" || s === "active" || s === "doing") return "in_progress";
  return "pending";
}

export function planItemsOf(events: readonly SessionEvent[], cwd: string | null): LedgerPlanItem[] {
  // A call whose result failed changed nothing; one whose result is not in yet (the call at the cut) stands.
  const failed = new Set<string>();
  for (const e of events)
    if (e.event_type === "tool_result" && e.status === "error" && e.parent_event_id) failed.add(e.parent_event_id);
  const sources = new Map<string, Items>();
  const replace = (
    source: string,
    e: SessionEvent,
    items: Array<{ text: string; state: PlanState }>,
    cites: string[],
  ) => {
    const next: Items = new Map();
    for (const it of items) next.set(it.text, { state: it.state, ordinal: e.ordinal, cites });
    sources.set(source, next);
  };

  for (const e of events) {
    if (e.event_type === "tool_call" && !failed.has(e.event_id)) {
      const input = toolInputOfEvent(e);
      if (input?.kind === "plan" && input.todos) {
        const list = input.todos.map((t) => ({ text: t.text, state: stateOf(t.status) }));
        replace(e.tool_name ?? "todo", e, list, [e.event_id]);
        continue;
      }
      const path = e.file_path;
      if (!path || !MARKDOWN.test(path) || e.command !== null) continue;
      const source = displayPath(path, cwd);
      if (input?.kind === "write" && input.content !== undefined)
        replace(source, e, checkboxes(input.content), [e.event_id]);
      else if (input?.kind === "edit" && input.edits) editItems(sources, source, e, input.edits);
    } else if (e.event_type === "tool_result" && e.status === "ok" && e.file_path && isPlanFile(e.file_path)) {
      // A read shows the file as it is on disk; only whole reads (no offset or limit) replace what was known.
      if (!/^read|^view|read_file/i.test(e.tool_name ?? "") || e.command !== null) continue;
      const items = checkboxes(e.text);
      if (items.length > 0) replace(displayPath(e.file_path, cwd), e, items, [e.event_id]);
    }
  }
  const out: LedgerPlanItem[] = [];
  for (const [source, items] of sources)
    for (const [text, it] of items) out.push({ text, state: it.state, source, ordinal: it.ordinal, cites: it.cites });
  // In list order within a source; sources by their last change, newest first.
  const lastChange = new Map<string, number>();
  for (const it of out) lastChange.set(it.source, Math.max(lastChange.get(it.source) ?? 0, it.ordinal));
  return out
    .map((it, i) => ({ it, i }))
    .sort((a, b) => lastChange.get(b.it.source)! - lastChange.get(a.it.source)! || a.i - b.i)
    .map(({ it }) => it);
}

function editItems(sources: Map<string, Items>, source: string, e: SessionEvent, edits: readonly TextEdit[]): void {
  const items: Items = sources.get(source) ?? new Map();
  for (const edit of edits) {
    const after = checkboxes(edit.new ?? "");
    const kept = new Set(after.map((x) => x.text));
    for (const x of checkboxes(edit.old)) if (!kept.has(x.text)) items.delete(x.text);
    for (const x of after) items.set(x.text, { state: x.state, ordinal: e.ordinal, cites: [e.event_id] });
  }
  if (items.size > 0) sources.set(source, items);
}
