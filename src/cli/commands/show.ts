import type { ResolvedEdge } from "../../app/event.ts";
import { cite } from "../../topology/citation.ts";
import { REVEAL_FLAG, REVEAL_USAGE, readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { dim, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn show <event-id|prefix|[e:ID]> [--json | --source] [--reveal-secrets] [--db PATH]

Prints one event (what a brief's [e:<id>] cites): its session, position, type, source line and full text, then
its edges out and in, each with what it points at (an event, a file, a command, an error signature, a session).
--source prints the transcript line the event was read from, as the agent wrote it: the whole of a text the index
keeps only the head and tail of (a string over 4 MiB), while the transcript exists.
${REVEAL_USAGE}`;

export const showCommand: Command = {
  name: "show",
  summary: "print one event with its edges",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      { json: { type: "boolean" }, source: { type: "boolean" }, db: { type: "string" }, ...REVEAL_FLAG },
      true,
    );
    const id = positionals[0];
    if (!id) throw new UsageError("give an event id or a unique prefix of one");
    if (positionals.length > 1) throw new UsageError(`one event at a time (got ${positionals.join(", ")})`);
    const app = readCairn(io, values.db, { json: values.json === true, reveal: values["reveal-secrets"] === true });
    try {
      if (values.source) {
        io.stdout.write(`${app.sourceLine(id).text}\n`);
        return 0;
      }
      const answer = app.event(id);
      const { event, edges } = answer;
      if (values.json) {
        writeJson(io, answer);
        return 0;
      }
      const facts = [
        ["session", event.session_id],
        ["position", `@${event.ordinal} (turn ${event.turn})`],
        ["time", shortTime(event.timestamp)],
        ["type", `${event.event_type}${event.role ? ` (${event.role})` : ""}`],
        ["tool", event.tool_name],
        ["command", event.command],
        ["file", event.file_path],
        ["status", event.status],
        ["parent", event.parent_event_id],
        ["source", `${event.source_file}:${event.source_line}`],
      ] as const;
      io.stdout.write(`event ${event.event_id}\n`);
      for (const [k, v] of facts) if (v) io.stdout.write(`${dim(io, k.padEnd(9))}${v}\n`);
      io.stdout.write(`\n${event.text}\n`);
      writeEdges(io, "edges out", edges.out);
      writeEdges(io, "edges in", edges.in);
      return 0;
    } finally {
      app.close();
    }
  },
};

function writeEdges(io: CliIo, title: string, edges: ResolvedEdge[]): void {
  if (edges.length === 0) return;
  io.stdout.write(`\n${title}\n`);
  for (const e of edges) {
    const what =
      e.other_kind === "event"
        ? `${cite(e.other)} ${e.other_type}`
        : e.other_kind === "entity"
          ? `${e.other_type}`
          : `${e.other_kind} ${e.other}`;
    const meta = e.meta ? ` ${dim(io, JSON.stringify(e.meta))}` : "";
    io.stdout.write(`  ${e.edge_type.padEnd(12)} ${what}${e.display ? ` "${e.display}"` : ""}${meta}\n`);
  }
}
