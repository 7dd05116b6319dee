import { parseArgs } from "node:util";
import { resolveSession } from "../../search/sessions.ts";
import { buildTimeline, type TimelineMark } from "../../search/timeline.ts";
import { openIndexForReading } from "../db.ts";
import { dim, green, red, shortTime } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn timeline <session-id|prefix> [--all] [--json] [--db PATH]

Prints a session's events in order: prompts, replies, tool calls with their output collapsed, errors (✗), checks
(✓/✗), decisions (◆) and resume points (⟲) marked; branches and sidechains shown. --all also lists the file
actions and commands folded into their tool calls.`;

const GLYPH: Record<TimelineMark, string> = {
  prompt: "›",
  reply: "‹",
  call: "→",
  output: "←",
  error: "✗",
  test_pass: "✓",
  test_fail: "✗",
  decision: "◆",
  resume: "⟲",
  note: "·",
  file: "□",
  command: "$",
};

export const timelineCommand: Command = {
  name: "timeline",
  summary: "show a session's events in order",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    const id = positionals[0];
    if (!id) throw new UsageError("give a session id or a unique prefix of one");
    const store = openIndexForReading(values.db, io);
    try {
      const session = resolveSession(store, id);
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
      io.stdout.write("\n");
      for (const r of rows) {
        const glyph =
          r.mark === "error" || r.mark === "test_fail"
            ? red(io, GLYPH[r.mark])
            : r.mark === "test_pass"
              ? green(io, GLYPH[r.mark])
              : GLYPH[r.mark];
        const indent = `${r.sidechain ? "│ " : ""}${"  ".repeat(r.depth)}`;
        if (r.branch_from) io.stdout.write(`${dim(io, `       ↳ branches from ${r.branch_from}`)}\n`);
        io.stdout.write(
          `${dim(io, `${shortTime(r.timestamp).slice(11)} ${String(r.ordinal).padStart(5)}`)} ${indent}${glyph} ${r.summary}\n`,
        );
      }
      return 0;
    } finally {
      store.close();
    }
  },
};

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { all: { type: "boolean" }, json: { type: "boolean" }, db: { type: "string" } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
