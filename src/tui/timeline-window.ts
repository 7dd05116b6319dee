/**
 * The open session's timeline as a window of rows read a stretch at a time through `app.timeline`: a
 * 10,000-event session opens at its end (or around an event) after reading a few hundred rows, and more are read
 * as the cursor reaches either edge. Reading the whole of such a session takes seconds; a stretch takes
 * milliseconds.
 */
import type { ReadCairn } from "../app/cairn.ts";
import type { TimelineWindow } from "../app/timeline.ts";
import type { TimelineRow } from "../search/timeline.ts";

/** Rows read at a time. */
export const STRETCH = 300;

export class TimelineView {
  rows: TimelineRow[] = [];
  /** Where the rows before the window end, or null at the session's start; `later` likewise after it. */
  earlier: { to: number } | null = null;
  later: { from: number } | null = null;
  private readonly app: Pick<ReadCairn, "timeline">;
  readonly sessionId: string;

  constructor(app: Pick<ReadCairn, "timeline">, sessionId: string) {
    this.app = app;
    this.sessionId = sessionId;
  }

  private take(w: TimelineWindow): void {
    this.rows = w.rows;
    this.earlier = w.earlier;
    this.later = w.later;
  }

  /** The session's last rows (where the work stopped). */
  loadEnd(): void {
    this.take(this.app.timeline({ session: this.sessionId, limit: STRETCH }));
  }

  loadStart(): void {
    this.take(this.app.timeline({ session: this.sessionId, from: 0, limit: STRETCH }));
  }

  /** The rows around an event; returns the index of its row (or the row it is folded into). */
  loadAround(at: { event_id: string; ordinal: number }): number {
    let index = this.indexOf(at);
    if (index >= 0) return index;
    this.take(this.app.timeline({ session: this.sessionId, around: at.event_id, limit: STRETCH }));
    index = this.indexOf(at);
    return index >= 0 ? index : this.nearest(at.ordinal);
  }

  /** Reads the stretch before the window; returns how many rows came in front. */
  extendEarlier(): number {
    if (!this.earlier) return 0;
    const w = this.app.timeline({ session: this.sessionId, to: this.earlier.to, limit: STRETCH });
    this.rows = [...w.rows, ...this.rows];
    this.earlier = w.earlier;
    return w.rows.length;
  }

  extendLater(): number {
    if (!this.later) return 0;
    const w = this.app.timeline({ session: this.sessionId, from: this.later.from, limit: STRETCH });
    this.rows = [...this.rows, ...w.rows];
    this.later = w.later;
    return w.rows.length;
  }

  /** Reads the window again from its first row to the session's end, after new events were indexed. */
  refresh(): void {
    if (this.later) return;
    const from = this.rows[0]?.ordinal ?? 0;
    const w = this.app.timeline({ session: this.sessionId, from });
    this.rows = w.rows;
    this.later = w.later;
  }

  private indexOf(at: { event_id: string; ordinal: number }): number {
    const exact = this.rows.findIndex((r) => r.event_id === at.event_id);
    if (exact >= 0) return exact;
    const first = this.rows[0];
    const last = this.rows.at(-1);
    if (!first || !last || at.ordinal < first.ordinal || at.ordinal > last.ordinal) return -1;
    return this.nearest(at.ordinal);
  }

  /** The last row at or before a position. */
  private nearest(ordinal: number): number {
    let best = 0;
    this.rows.forEach((r, i) => {
      if (r.ordinal <= ordinal) best = i;
    });
    return best;
  }
}
