/**
 * The right pane while the search results have the focus: the selected hit in its session, read through the app
 * (its answers are shaped, so transcript text is inert): the session's title, the event's text, and the timeline
 * rows around it, the hit's row marked. Read once per hit, as the selection moves.
 */
import type { ReadCairn, Shaped } from "../app/cairn.ts";
import type { EventWithChain } from "../app/event-chain.ts";
import type { SearchHit } from "../search/search.ts";
import type { TimelineRow } from "../search/timeline.ts";
import type { SessionRow } from "../store/types.ts";
import { type Line, oneLine, providerCell, shortTime, timelineLine, type Wrap } from "./lines.ts";
import type { Style } from "./style.ts";

/** Rows read around the hit: the pane shows as many as fit. */
const AROUND = 15;

export interface HitPreview {
  eventId: string;
  session: Shaped<SessionRow> | null;
  event: EventWithChain | null;
  rows: TimelineRow[];
  error: string | null;
}

export function readPreview(app: ReadCairn, hit: Pick<SearchHit, "event_id" | "session_id">): HitPreview {
  try {
    const event = app.eventChain(hit.event_id);
    const around = app.timeline({ session: hit.session_id, around: hit.event_id, limit: AROUND });
    return { eventId: hit.event_id, session: around.session, event, rows: around.rows, error: null };
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    return { eventId: hit.event_id, session: null, event: null, rows: [], error: said };
  }
}

/** The preview in `height` lines: who and where, the event's text (a third of the room at most), then its rows. */
export function previewLines(p: HitPreview, width: number, height: number, style: Style, wrap: Wrap): string[] {
  if (p.error || !p.event || !p.session) return [style.bold("Preview"), style.red(p.error ?? "no such event")];
  const s = p.session;
  const e = p.event.event;
  const out = [
    style.bold(oneLine(s.title ?? s.session_short)),
    style.dim(`${providerCell(s.provider).trim()} ${s.project ?? ""} ${s.session_short} · ${shortTime(e.timestamp)}`),
    "",
    style.bold(`${e.event_type}${e.status ? ` ${e.status}` : ""} @${e.ordinal}`),
  ];
  const rows = p.rows.map((r) => timelineLine(r, style));
  const textRoom = Math.max(3, Math.floor((height - out.length - 3) / 3), height - out.length - 3 - rows.length);
  const text = e.text
    .split("\n")
    .flatMap((l) => wrap(l, width))
    .filter((l, i, all) => l.trim() !== "" || (i > 0 && all[i - 1]!.trim() !== ""));
  out.push(...text.slice(0, textRoom));
  if (text.length > textRoom) out.push(style.dim(`… ${text.length - textRoom} more lines (Enter, then 2)`));
  out.push("", style.dim("Around it (Enter opens it there)"));
  out.push(...aroundRows(p, rows, Math.max(1, height - out.length)));
  return out;
}

/** The rows that fit, centred on the hit's (or the row it is folded into), marked as a selection without the focus. */
function aroundRows(p: HitPreview, rows: Line[], room: number): string[] {
  const ordinal = p.event?.event.ordinal ?? 0;
  let at = p.rows.findIndex((r) => r.event_id === p.eventId);
  if (at < 0)
    at = Math.max(
      0,
      p.rows.findLastIndex((r) => r.ordinal <= ordinal),
    );
  const top = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  return rows.slice(top, top + room).map((l, i) => `${top + i === at ? "·" : " "}${l.text}`);
}
