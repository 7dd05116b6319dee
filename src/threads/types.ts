/** Work threads: sessions of any agent that worked on the same thing, joined by the rare entities they share. */
import type { ThreadSessionRow } from "../store/thread-types.ts";
import type { EntityKind, Provider } from "../topology/types.ts";

export const THREAD_LABELS = ["open", "closed"] as const;
export type ThreadLabel = (typeof THREAD_LABELS)[number];

/** Entity kinds that can join sessions; commands are left out because the same few run everywhere. */
export const JOIN_KINDS = ["file", "error_signature", "branch"] as const satisfies readonly EntityKind[];
export type JoinKind = (typeof JOIN_KINDS)[number];

export interface ThreadSession extends ThreadSessionRow {
  /** For subagent and `codex exec` sessions: the session they are folded into (whose work they are part of). */
  folded_into: string | null;
}

/** A join key shared by two or more of a thread's work units. */
export interface SharedEntity {
  entity_id: string;
  kind: JoinKind;
  display: string;
  /** How many of the thread's sessions (subagents counted with their parent) share it. */
  sessions: number;
  session_ids: string[];
}

export interface Thread {
  /** Derived from the thread's earliest session, so it stays the same when later sessions join. */
  thread_id: string;
  label: ThreadLabel;
  /** The fact the label rests on, in words. */
  label_reason: string;
  started_at: string | null;
  updated_at: string | null;
  providers: Provider[];
  projects: string[];
  /** Sessions by start time; folded subagent and exec sessions follow the session they belong to. */
  sessions: ThreadSession[];
  /** Join keys shared inside the thread, most shared first. */
  shared: SharedEntity[];
  /** What the thread shares, in words ("shares the file `src/db.ts` and the error `…`"); never empty. */
  shares: string;
}

export interface ListThreadsOptions {
  /** Threads with at least one session in one of these projects (name, or part of the working directory). */
  project?: readonly string[];
  /** Also list sessions that joined nothing, as threads of one. */
  includeSingle?: boolean;
  limit?: number;
}

export interface ListThreadsResult {
  threads: Thread[];
  /** Threads that matched before the limit. */
  total: number;
}
