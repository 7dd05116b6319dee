/**
 * What the pi reader carries from one entry to the next (plain JSON, so a read can resume from a saved state), and
 * where the entry being read is.
 */
import type { LineState } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";

export interface PiState extends LineState {
  version: number;
  fileStem: string;
  /** v1 has no ids: each entry's key is its line, and its tree parent is the entry before it that became a record. */
  lastKey: string | null;
  seenModel: string | null;
  /**
   * Entries that became no event (model and thinking-level changes, session names, extension state) → the tree
   * parent that stands for them, so a child of such an entry points at an event that exists (null: a root).
   */
  alias: Record<string, string | null>;
}

/** Where an entry is: its line and time, the key its record takes and its parent in the session tree. */
export interface EntryAt {
  line: SourceLine;
  ts: string | null;
  key: string;
  parentKey: string | null;
}
