/**
 * Claude Code's conversation tree: each line names its parent by `parentUuid`. A line that makes no record of its
 * own is aliased to the record that stands for it, so its children still point at a record that exists.
 */
import { type Obj, str } from "../json.ts";
import type { SourceLine } from "../types.ts";
import type { ClaudeState } from "./state.ts";

/** The key a line's first record takes: its uuid, or its line number when it has none. */
export function lineKey(o: Obj, line: SourceLine): string {
  return str(o["uuid"]) ?? `L${line.line}`;
}

export function parentOf(s: ClaudeState, o: Obj): string | null {
  const p = str(o["parentUuid"]);
  if (!p) return null;
  return s.alias[p] ?? p;
}

/** A line with a uuid that yields no record stands for its parent in the tree. */
export function quietAlias(s: ClaudeState, o: Obj): void {
  const uuid = str(o["uuid"]);
  if (!uuid) return;
  const parent = parentOf(s, o);
  if (parent) s.alias[uuid] = parent;
}
