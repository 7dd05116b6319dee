/**
 * The Threads tab: the work threads the open session belongs to (what `cairn threads --all` lists), each with its
 * open/closed label and the fact it rests on, its sessions (Enter opens one), the rare entities they share, and the
 * thread's latest events across its sessions (Enter goes to one in its session's timeline).
 */
import type { ReadCairn, Shaped } from "../app/cairn.ts";
import { plural } from "../common/plural.ts";
import type { SessionTimelineRow } from "../search/timeline.ts";
import type { Thread } from "../threads/types.ts";
import { type Line, oneLine, providerCell, shortTime, type Wrap } from "./lines.ts";
import type { Style } from "./style.ts";

/** How many of a thread's last events the tab lists. */
const LAST_EVENTS = 12;

export interface SessionThreads {
  sessionId: string;
  /** Null while they are being read. */
  threads: Array<{ thread: Shaped<Thread>; last: Shaped<SessionTimelineRow>[] }> | null;
  error: string | null;
}

/** The threads holding `sessionId` (as a root or a folded subagent), with their latest events. */
export async function threadsOf(app: ReadCairn, sessionId: string): Promise<SessionThreads> {
  const all = (await app.threads({ include_single: true })).threads;
  const mine = all.filter((t) => t.sessions.some((s) => s.session_id === sessionId));
  const threads = [];
  for (const thread of mine)
    threads.push({ thread, last: (await app.threadTimeline({ thread: thread.thread_id, limit: LAST_EVENTS })).rows });
  return { sessionId, error: null, threads };
}

export function threadLines(st: SessionThreads, width: number, style: Style, wrap: Wrap): Line[] {
  if (st.error) return wrap(st.error, width).map((w) => ({ text: style.red(w) }));
  if (st.threads === null) return [{ text: style.dim("reading the threads (every session is compared)…") }];
  if (st.threads.length === 0) return [{ text: style.dim("this session is in no thread (it has no main session)") }];
  const out: Line[] = [];
  for (const { thread: t, last } of st.threads) {
    if (out.length > 0) out.push({ text: "" });
    const label = t.label === "open" ? style.red("open") : style.green("closed");
    const units = t.sessions.filter((s) => s.folded_into === null).length;
    const sessions = `${units} session${units === 1 ? "" : "s"}`;
    const span = `${shortTime(t.started_at)} → ${shortTime(t.updated_at)}`;
    out.push({
      text: `${style.bold(`thread ${t.thread_id}`)} ${label} · ${sessions} · ${t.providers.join(", ")} · ${style.dim(span)}`,
    });
    for (const w of wrap(t.label_reason, Math.max(10, width - 2))) out.push({ text: style.dim(`  ${w}`) });
    out.push({ text: style.bold("Sessions") });
    for (const s of t.sessions) {
      const here = s.session_id === st.sessionId ? style.cyan(" (open)") : "";
      const line =
        s.folded_into !== null
          ? `    └ ${s.kind} ${s.session_id}`
          : `  ${style.agent(s.provider)(providerCell(s.provider))} ${shortTime(s.started_at)} ${style.bold(s.project ?? "-")} ${s.session_short} ${style.dim(oneLine(s.title ?? ""))}`;
      out.push({ text: `${line}${here}`, session: s.session_id });
    }
    for (const w of wrap(t.shares, Math.max(10, width - 2))) out.push({ text: style.dim(`  ${w}`) });
    if (t.shared.length > 0) {
      out.push({ text: style.bold("Shared") });
      for (const e of t.shared.slice(0, 8))
        out.push({
          text: `  ${e.kind === "error_signature" ? "error" : e.kind} ${oneLine(e.display)} ${style.dim(`(${plural(e.sessions, "session")})`)}`,
        });
      if (t.shared.length > 8) out.push({ text: style.dim(`  +${t.shared.length - 8} more`) });
    }
    if (last.length > 0) {
      out.push({ text: style.bold("Latest events") });
      for (const r of last)
        out.push({
          text: `  ${shortTime(r.timestamp)} ${r.session_short} ${String(r.ordinal).padStart(5)} ${oneLine(r.summary)}`,
          target: r.event_id,
        });
    }
  }
  return out;
}
