import { parseArgs } from "node:util";
import { resolveSession } from "../../search/sessions.ts";
import { buildTimeline, type SessionTimelineRow, type TimelineMark, type TimelineRow } from "../../search/timeline.ts";
import type { Store } from "../../store/types.ts";
import { threadTimeline } from "../../threads/timeline.ts";
import { openIndexForReading } from "../db.ts";
import { dim, green, plural, red, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn timeline <session-id|prefix> [--all] [--json] [--db PATH]
       cairn timeline --thread <thread-id|prefix> [--all] [--json] [--db PATH]

Prints a session's events in order: prompts, replies, tool calls with their output collapsed, errors (✗), checks
(✓/✗), decisions (◆), request outcomes (⇒) and resume points (⟲) marked; branches and sidechains shown. --all also lists the file
actions and commands folded into their tool calls. --thread merges the events of every session of a work thread
('cairn threads') by time, each row naming the session and agent it came from.`;

const GLYPH: Record<TimelineMark, string> = {
  prompt: "›",
  reply: "‹",
  call: "→",
  output: "←",
  error: "✗",
  test_pass: "✓",
  test_unknown: "?",
  test_fail: "✗",
  decision: "◆",
  resume: "⟲",
  note: "·",
  file: "□",
  command: "$",
  outcome: "⇒",
};

export const timelineCommand: Command = {
  name: "timeline",
  summary: "show a session's events in order",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    const id = positionals[0];
    if (values.thread !== undefined && id) throw new UsageError("give a session id or --thread, not both");
    if (values.thread === undefined && !id) throw new UsageError("give a session id or a unique prefix of one");
    if (values.thread === "") throw new UsageError("--thread needs a thread id or a unique prefix of one");
    const store = openIndexForReading(values.db, io);
    try {
      if (values.thread !== undefined) return writeThread(io, store, values.thread, values.all === true, values.json);
      const session = resolveSession(store, id!);
      const rows = buildTimeline(store, session.session_id, { all: values.all === true });
      if (values.json) {
        writeJson(io, { session, events: rows });
        return 0;
      }
      io.stdout.write(
        `${session.provider} ${session.kind} session ${session.session_id}${session.title ? ` — ${session.title}` : ""}\n`,
      );
      if (session.cwd)
        io.stdout.write(`${dim(io, `${session.cwd}${session.git_branch ? ` (${session.git_branch})` : ""}`)}\n`);
      if (session.source_gone)
        io.stdout.write(
          `${red(io, "source gone:")} ${session.source_file} is no longer on disk; cairn keeps what it read ('cairn prune' forgets it)\n`,
        );
      io.stdout.write("\n");
      for (const r of rows)
        writeRow(io, r, dim(io, `${shortTime(r.timestamp).slice(11)} ${String(r.ordinal).padStart(5)}`));
      return 0;
    } finally {
      store.close();
    }
  },
};

function writeThread(io: CliIo, store: Store, id: string, all: boolean, json: boolean | undefined): number {
  const { thread, events } = threadTimeline(store, id, { all });
  if (json) {
    writeJson(io, { thread, events });
    return 0;
  }
  io.stdout.write(
    `thread ${thread.thread_id} (${thread.label}) — ${plural(thread.sessions.length, "session")}: ${thread.providers.join(", ")}\n`,
  );
  // Rows name their session by a short tag; the legend maps tags to sessions.
  const tags = new Map(thread.sessions.map((s, i) => [s.session_id, `s${i + 1}`]));
  for (const s of thread.sessions) {
    const where = [s.project, s.folded_into ? `${s.kind} of ${tags.get(s.folded_into)}` : null].filter(Boolean);
    io.stdout.write(
      `${dim(io, `  ${tags.get(s.session_id)!.padEnd(3)} ${s.provider.padEnd(6)} ${s.session_id}${where.length ? `  ${where.join(", ")}` : ""}`)}\n`,
    );
  }
  io.stdout.write("\n");
  for (const r of events) writeRow(io, r, dim(io, prefixOf(r, tags)));
  return 0;
}

function prefixOf(r: SessionTimelineRow, tags: ReadonlyMap<string, string>): string {
  // Sessions interleave within minutes, so the merged view shows seconds.
  const time = r.timestamp ? r.timestamp.replace("T", " ").slice(5, 19) : "—".padEnd(14);
  return `${time} ${tags.get(r.session_id)!.padEnd(3)} ${r.provider.padEnd(6)} ${String(r.ordinal).padStart(5)}`;
}

function writeRow(io: CliIo, r: TimelineRow, prefix: string): void {
  const glyph =
    r.mark === "error" || r.mark === "test_fail"
      ? red(io, GLYPH[r.mark])
      : r.mark === "test_pass"
        ? green(io, GLYPH[r.mark])
        : GLYPH[r.mark];
  const indent = `${r.sidechain ? "│ " : ""}${"  ".repeat(r.depth)}`;
  if (r.branch_from) io.stdout.write(`${dim(io, `       ↳ branches from ${r.branch_from}`)}\n`);
  io.stdout.write(`${prefix} ${indent}${glyph} ${r.summary}\n`);
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        all: { type: "boolean" },
        json: { type: "boolean" },
        thread: { type: "string" },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
