/**
 * A window of one session's timeline: all of it, its end, a stretch from a position or a time, or the rows around
 * an event. Windows are counted in rows; events are read a stretch at a time (with a margin before it, so that a
 * row's source and the branch it starts are seen), never a whole long session for a short window.
 */

import { CairnError } from "../common/errors.ts";
import { parseTime } from "../search/query.ts";
import { type TimelineRow, timelineRows } from "../search/timeline.ts";
import { resolveEventId, resolveSessionId } from "../store/resolve.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import type { SessionEvent } from "../topology/types.ts";

/** Rows shown around an event when no limit is given. */
export const AROUND_ROWS = 40;
/** Events read before a window so its first rows see their source and the event before them. */
const MARGIN = 64;

export interface TimelineRequest {
  /** A session id or unique prefix; implied by `around`. */
  session?: string;
  /** An event id or unique prefix: the rows around it. */
  around?: string;
  /** First and last position (@N) to consider. */
  from?: number;
  to?: number;
  /** Times in the query language's forms (`2026-11-02`, `7d`, `yesterday`, ISO times). */
  since?: string;
  until?: string;
  /** Rows at most: around an event, from `from`/`since` onwards, else the session's last rows. */
  limit?: number;
  /** Also list file actions and commands as rows of their own. */
  all?: boolean;
  now?: Date;
}

export interface TimelineWindow {
  session: SessionRow;
  /** The positions the rows cover (folded events included), within the session's `0..event_count-1`. */
  window: { from: number; to: number };
  rows: TimelineRow[];
  /** Ask again with this `to` for the rows before, or null at the session's start. */
  earlier: { to: number } | null;
  /** Ask again with this `from` for the rows after, or null at the session's end. */
  later: { from: number } | null;
}

export function timelineWindow(store: ReadonlyStore, req: TimelineRequest): TimelineWindow {
  // The request was checked against the question's schema and rules (catalog/timeline.ts).
  const anchor = req.around === undefined ? null : resolveEventId(store, req.around);
  const session = resolveSessionId(store, req.session ?? anchor!.session_id);
  if (anchor && anchor.session_id !== session.session_id)
    throw new CairnError(
      "usage",
      `event ${anchor.event_id} is in session ${anchor.session_id}, not ${session.session_id}`,
    );
  const last = Math.max(0, session.event_count - 1);
  let lo = Math.max(0, req.from ?? 0);
  let hi = Math.min(last, req.to ?? last);
  if (req.since !== undefined || req.until !== undefined) {
    const bounds = timeBounds(store, session.session_id, req);
    lo = Math.max(lo, bounds.lo);
    hi = Math.min(hi, bounds.hi);
  }
  const read = (a: number, b: number): TimelineRow[] =>
    a > b
      ? []
      : timelineRows(store.sessionEvents(session.session_id, { from: Math.max(0, a - MARGIN), to: b }), {
          all: req.all === true,
          cwd: session.cwd,
        }).filter((r) => r.ordinal >= a);
  const limit = req.limit ?? (anchor ? AROUND_ROWS : undefined);
  let rows: TimelineRow[];
  let from = lo;
  let to = hi;
  if (limit === undefined) rows = read(lo, hi);
  else if (anchor) ({ rows, from, to } = aroundAnchor(read, lo, hi, anchor.ordinal, limit));
  else if (req.from !== undefined || req.since !== undefined) ({ rows, from, to } = fromStart(read, lo, hi, limit));
  else ({ rows, from, to } = fromEnd(read, lo, hi, limit));
  if (lo > hi) ({ from, to } = { from: lo, to: lo - 1 });
  return {
    session,
    window: { from, to },
    rows,
    earlier: from > 0 ? { to: from - 1 } : null,
    later: to < last ? { from: to + 1 } : null,
  };
}

type Read = (a: number, b: number) => TimelineRow[];
interface Span {
  rows: TimelineRow[];
  from: number;
  to: number;
}

/** The first `limit` rows from `lo`, reading further until they are found or `hi` is reached. */
function fromStart(read: Read, lo: number, hi: number, limit: number): Span {
  let b = Math.min(hi, lo + limit - 1);
  let rows = read(lo, b);
  while (rows.length < limit && b < hi) {
    b = Math.min(hi, b + Math.max(limit - rows.length, 16) * 2);
    rows = read(lo, b);
  }
  if (rows.length <= limit) return { rows, from: lo, to: b };
  const kept = rows.slice(0, limit);
  return { rows: kept, from: lo, to: rows[limit]!.ordinal - 1 };
}

/** The last `limit` rows up to `hi`. */
function fromEnd(read: Read, lo: number, hi: number, limit: number): Span {
  let a = Math.max(lo, hi - limit + 1);
  let rows = read(a, hi);
  while (rows.length < limit && a > lo) {
    a = Math.max(lo, a - Math.max(limit - rows.length, 16) * 2);
    rows = read(a, hi);
  }
  if (rows.length <= limit) return { rows, from: a, to: hi };
  const kept = rows.slice(rows.length - limit);
  return { rows: kept, from: kept[0]!.ordinal, to: hi };
}

/** `limit` rows around position `at`: half before it, the rest from it on, shifted to fill at either end. */
function aroundAnchor(read: Read, lo: number, hi: number, at: number, limit: number): Span {
  const before = Math.floor(limit / 2);
  let a = Math.max(lo, at - before);
  let b = Math.min(hi, a + limit - 1);
  let rows = read(a, b);
  for (let tries = 0; rows.length < limit && (a > lo || b < hi) && tries < 12; tries++) {
    const need = Math.max(limit - rows.length, 16) * 2;
    a = Math.max(lo, a - need);
    b = Math.min(hi, b + need);
    rows = read(a, b);
  }
  if (rows.length <= limit) return { rows, from: a, to: b };
  const index = Math.max(
    0,
    rows.findIndex((r) => r.ordinal >= at),
  );
  const start = Math.min(Math.max(0, index - before), rows.length - limit);
  const kept = rows.slice(start, start + limit);
  return {
    rows: kept,
    from: start === 0 ? a : kept[0]!.ordinal,
    to: start + limit >= rows.length ? b : rows[start + limit]!.ordinal - 1,
  };
}

/** The positions of the session's first event at or after `since` and last at or before `until`. */
function timeBounds(store: ReadonlyStore, sessionId: string, req: TimelineRequest): { lo: number; hi: number } {
  const now = req.now ?? new Date();
  const since = req.since === undefined ? null : parseTime(req.since, now, `since ${req.since}`);
  const until = req.until === undefined ? null : parseTime(req.until, now, `until ${req.until}`, true);
  if (since !== null && until !== null && since > until)
    throw new CairnError("usage", `since (${since}) is after until (${until})`);
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  // Events without a time take the time of the event before them.
  let time: string | null = null;
  for (const e of store.sessionEvents(sessionId) as SessionEvent[]) {
    time = e.timestamp ?? time;
    if (time === null) continue;
    if ((since === null || time >= since) && (until === null || time <= until)) {
      lo = Math.min(lo, e.ordinal);
      hi = Math.max(hi, e.ordinal);
    }
  }
  return Number.isFinite(lo) ? { lo, hi } : { lo: 1, hi: 0 };
}
