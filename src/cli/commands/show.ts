import { parseArgs } from "node:util";
import { resolveEvent } from "../../search/sessions.ts";
import type { Edge } from "../../topology/types.ts";
import { openIndexForReading } from "../db.ts";
import { dim, shortTime } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn show <event-id|prefix> [--json] [--db PATH]

Prints one event (what a brief's [e:<id>] cites): its session, position, type, source line and full text, then
its edges out and in.`;

export const showCommand: Command = {
  name: "show",
  summary: "print one event with its edges",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    const id = positionals[0];
    if (!id) throw new UsageError("give an event id or a unique prefix of one");
    const store = openIndexForReading(values.db, io);
    try {
      const event = resolveEvent(store, id);
      const edges = { out: store.edgesFrom(event.event_id), in: store.edgesTo(event.event_id) };
      if (values.json) {
        writeJson(io, { event, edges });
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
      writeEdges(io, "edges out", edges.out, (e) => e.dst);
      writeEdges(io, "edges in", edges.in, (e) => e.src);
      return 0;
    } finally {
      store.close();
    }
  },
};

function writeEdges(io: Parameters<Command["run"]>[1], title: string, edges: Edge[], other: (e: Edge) => string) {
  if (edges.length === 0) return;
  io.stdout.write(`\n${title}\n`);
  for (const e of edges)
    io.stdout.write(
      `  ${e.edge_type.padEnd(12)} ${other(e)}${e.meta && Object.keys(e.meta).length > 0 ? ` ${JSON.stringify(e.meta)}` : ""}\n`,
    );
}

/** An event by exact id or by a prefix that names exactly one. */
function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, db: { type: "string" } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
