import type { ReadCairn, Shaped, ThreadTimelineWindow } from "../../app/cairn.ts";
import type { TimelineWindow } from "../../app/timeline.ts";
import { MARK_GLYPH, type SessionTimelineRow, type TimelineRow } from "../../search/timeline.ts";
import { REVEAL_FLAG, REVEAL_USAGE, readCairn } from "../app.ts";
import { naturalInt, parseFlags, positiveInt } from "../args.ts";
import { bold, dim, green, plural, providerCell, red } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn timeline <session-id|prefix> [--limit N] [--around ID] [--since T] [--until T]
                     [--from N] [--to N] [--all] [--json] [--reveal-secrets] [--db PATH]
       cairn timeline --around <event-id|prefix> [--limit N] [--all] [--json] [--reveal-secrets] [--db PATH]
       cairn timeline --thread <thread-id|prefix> [--limit N] [--all] [--json] [--reveal-secrets] [--db PATH]

Prints a session's events in order: prompts, replies, tool calls with their output collapsed, errors (✗), checks
(✓/✗), decisions (◆), request outcomes (⇒) and resume points (⟲) marked; branches and sidechains shown; a date line where the day changes.

  --limit N     at most N rows: the session's last N, or the first N from --since/--from, or N around --around
  --around ID   the rows around an event (a search hit, an [e:ID]); the session is implied (default 40 rows)
  --since T     from this time on; --until T up to it (2026-11-02, 2026-11-02T10:00, 7d, 12h, today, yesterday)
  --from N      from position @N; --to N up to position @N
  --all         also list the file actions and commands folded into their tool calls
  --thread ID   merge the events of every session of a work thread ('cairn threads') by time, each row naming
                the session and agent it came from
${REVEAL_USAGE}`;

export const timelineCommand: Command = {
  name: "timeline",
  summary: "show a session's events in order",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        all: { type: "boolean" },
        json: { type: "boolean" },
        thread: { type: "string" },
        limit: { type: "string", short: "n" },
        around: { type: "string" },
        since: { type: "string" },
        until: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        db: { type: "string" },
        ...REVEAL_FLAG,
      },
      true,
    );
    const id = positionals[0];
    if (positionals.length > 1) throw new UsageError(`one session at a time (got ${positionals.join(", ")})`);
    const limit = positiveInt("--limit", values.limit);
    if (values.thread !== undefined) {
      if (id) throw new UsageError("give a session id or --thread, not both");
      for (const flag of ["around", "since", "until", "from", "to"] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with a session, not --thread`);
      if (values.thread === "") throw new UsageError("--thread needs a thread id or a unique prefix of one");
    } else if (!id && values.around === undefined)
      throw new UsageError("give a session id (or a unique prefix of one), --around ID or --thread ID");
    const app = readCairn(io, values.db, { json: values.json === true, reveal: values["reveal-secrets"] === true });
    try {
      if (values.thread !== undefined) {
        const t = await app.threadTimeline({
          thread: values.thread,
          all: values.all === true,
          ...(limit !== undefined ? { limit } : {}),
        });
        if (values.json) writeJson(io, t);
        else writeThread(io, t);
        return 0;
      }
      const w = window(app, id, values, limit);
      if (values.json) writeJson(io, w);
      else writeSession(io, w, limit);
      return 0;
    } finally {
      app.close();
    }
  },
};

function window(
  app: ReadCairn,
  id: string | undefined,
  v: { around?: string; since?: string; until?: string; from?: string; to?: string; all?: boolean },
  limit: number | undefined,
): Shaped<TimelineWindow> {
  const from = naturalInt("--from", v.from);
  const to = naturalInt("--to", v.to);
  return app.timeline({
    ...(id !== undefined ? { session: id } : {}),
    ...(v.around !== undefined ? { around: v.around } : {}),
    ...(v.since !== undefined ? { since: v.since } : {}),
    ...(v.until !== undefined ? { until: v.until } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(limit !== undefined ? { limit } : {}),
    all: v.all === true,
  });
}

function writeSession(io: CliIo, w: Shaped<TimelineWindow>, limit: number | undefined): void {
  const s = w.session;
  if (s.title) io.stdout.write(`${s.title}\n`);
  io.stdout.write(`${dim(io, `${s.provider} ${s.kind} session ${s.session_id}`)}\n`);
  if (s.cwd) io.stdout.write(`${dim(io, `${s.cwd}${s.git_branch ? ` (${s.git_branch})` : ""}`)}\n`);
  if (s.source_gone)
    io.stdout.write(
      `${red(io, "source gone:")} ${s.source_file} is no longer on disk; cairn keeps what it read ('cairn prune' forgets it)\n`,
    );
  const more = limit ? ` --limit ${limit}` : "";
  if (w.earlier) io.stdout.write(dim(io, `… earlier: cairn timeline ${s.session_short} --to ${w.earlier.to}${more}\n`));
  const days = createDayHeaders(io);
  for (const r of w.rows) {
    days.before(r);
    writeRow(io, r, dim(io, `${clock(r.timestamp, 5)} ${String(r.ordinal).padStart(5)}`));
  }
  if (w.rows.length === 0) io.stdout.write("\n(no events in this window)\n");
  if (w.later) io.stdout.write(dim(io, `… later: cairn timeline ${s.session_short} --from ${w.later.from}${more}\n`));
}

function writeThread(io: CliIo, w: Shaped<ThreadTimelineWindow>): void {
  const { thread } = w;
  io.stdout.write(
    `thread ${thread.thread_id} (${thread.label}) — ${plural(thread.sessions.length, "session")}: ${thread.providers.join(", ")}\n`,
  );
  // Rows name their session by a short tag; the legend maps tags to sessions.
  const tags = new Map(thread.sessions.map((s, i) => [s.session_id, `s${i + 1}`]));
  for (const s of thread.sessions) {
    const where = [s.project, s.folded_into ? `${s.kind} of ${tags.get(s.folded_into)}` : null].filter(Boolean);
    io.stdout.write(
      `${dim(io, `  ${tags.get(s.session_id)!.padEnd(3)} ${providerCell(s.provider)} ${s.session_id}${where.length ? `  ${where.join(", ")}` : ""}`)}\n`,
    );
  }
  if (w.earlier) io.stdout.write(dim(io, `… ${w.window.start_row} earlier rows\n`));
  const days = createDayHeaders(io);
  for (const r of w.rows) {
    days.before(r);
    writeRow(io, r, dim(io, prefixOf(r, tags)));
  }
}

/** A date line before the first row and wherever the day changes; rows without a time keep the day before. */
function createDayHeaders(io: CliIo): { before(r: TimelineRow): void } {
  let day: string | null = null;
  let first = true;
  return {
    before(r) {
      const d = r.timestamp?.slice(0, 10) ?? null;
      if (first || (d !== null && d !== day)) io.stdout.write(`\n${bold(io, `── ${d ?? "(no time)"} ──`)}\n`);
      first = false;
      if (d !== null) day = d;
    },
  };
}

/** `10:02` or `10:02:03` (UTC, as stored), blank when the event has no time. */
function clock(ts: string | null, width: 5 | 8): string {
  return ts ? ts.slice(11, 11 + width) : " ".repeat(width);
}

function prefixOf(r: SessionTimelineRow, tags: ReadonlyMap<string, string>): string {
  // Sessions interleave within minutes, so the merged view shows seconds.
  return `${clock(r.timestamp, 8)} ${tags.get(r.session_id)!.padEnd(3)} ${providerCell(r.provider)} ${String(r.ordinal).padStart(5)}`;
}

function writeRow(io: CliIo, r: TimelineRow, prefix: string): void {
  const glyph =
    r.mark === "error" || r.mark === "test_fail"
      ? red(io, MARK_GLYPH[r.mark])
      : r.mark === "test_pass"
        ? green(io, MARK_GLYPH[r.mark])
        : MARK_GLYPH[r.mark];
  const indent = `${r.sidechain ? "│ " : ""}${"  ".repeat(r.depth)}`;
  if (r.branch_from) io.stdout.write(`${dim(io, `       ↳ branches from ${r.branch_from}`)}\n`);
  io.stdout.write(`${prefix} ${indent}${glyph} ${r.summary}\n`);
}
