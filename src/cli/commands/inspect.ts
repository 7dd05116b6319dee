import type { Shaped } from "../../app/cairn.ts";
import type { InspectResult } from "../../indexer/inspect.ts";
import { EVENT_TYPES, type SessionEvent } from "../../topology/types.ts";
import { AGENT_NAMES, wrapWords } from "../agents.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { plural } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn inspect <file|dir>... [--json] [--events]

${wrapWords(`Reads transcript files of any agent cairn reads (${AGENT_NAMES}) and prints what cairn makes of them: sessions, events by kind, edges, entities, and every line it could not use, with file, line and reason. Nothing is written anywhere.`, 116)}

  --json     print one object { sessions, events, edges, entities, problems }
  --events   also list every event (ordinal, kind, status, first line of text)`;

export const inspectCommand: Command = {
  name: "inspect",
  summary: "print what cairn makes of transcript files",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, events: { type: "boolean" } }, true);
    if (positionals.length === 0) throw new UsageError("give at least one transcript file or folder");
    const app = readCairn(io, undefined, { json: values.json === true });
    const result = await app.inspect({ paths: positionals });
    if (values.json) {
      writeJson(io, {
        sessions: result.sessions,
        events: result.events,
        edges: result.edges,
        entities: result.entities,
        problems: result.problems,
      });
      return 0;
    }
    printHuman(io, result, values.events === true);
    return 0;
  },
};

function printHuman(io: CliIo, result: Shaped<InspectResult>, listEvents: boolean): void {
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const bySession = new Map<string, SessionEvent[]>();
  for (const e of result.events) {
    const list = bySession.get(e.session_id) ?? [];
    list.push(e);
    bySession.set(e.session_id, list);
  }
  out(
    `${plural(result.files.length, "file")}, ${plural(result.sessions.length, "session")}, ${plural(result.events.length, "event")}, ${plural(result.edges.length, "edge")}, ${plural(result.entities.length, "entity", "entities")}, ${plural(result.problems.length, "problem")}`,
  );
  for (const s of result.sessions) {
    const events = bySession.get(s.session_id) ?? [];
    out("");
    out(`${s.provider} ${s.kind} session ${s.session_id}${s.title ? ` — ${s.title}` : ""}`);
    out(`  file     ${s.source_file}`);
    if (s.cwd) out(`  cwd      ${s.cwd}${s.git_branch ? ` (branch ${s.git_branch})` : ""}`);
    if (s.started_at) out(`  time     ${s.started_at} → ${s.updated_at ?? "?"}`);
    if (s.parent_session_id) out(`  parent   ${s.parent_session_id}`);
    const counts = EVENT_TYPES.map((t) => [t, events.filter((e) => e.event_type === t).length] as const).filter(
      ([, n]) => n > 0,
    );
    out(`  events   ${counts.map(([t, n]) => `${t} ${n}`).join(", ")}`);
    const tools = new Map<string, number>();
    for (const e of events)
      if (e.event_type === "tool_call" && e.tool_name) tools.set(e.tool_name, (tools.get(e.tool_name) ?? 0) + 1);
    if (tools.size > 0)
      out(
        `  tools    ${[...tools]
          .sort((a, b) => b[1] - a[1])
          .map(([t, n]) => `${t} ${n}`)
          .join(", ")}`,
      );
    const tests = events.filter((e) => e.event_type === "test_result");
    if (tests.length > 0)
      out(`  checks   ${tests.length} runs, ${tests.filter((e) => e.status === "fail").length} failing`);
    if (listEvents) {
      for (const e of events)
        out(
          `  ${String(e.ordinal).padStart(5)} ${e.event_type.padEnd(17)} ${(e.status ?? "").padEnd(7)} ${oneLine(e.text)}`,
        );
    }
  }
  if (result.problems.length > 0) {
    out("");
    out("problems:");
    for (const p of result.problems) out(`  ${p.source_file}:${p.source_line}  ${p.reason}`);
  }
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 100 ? `${t.slice(0, 99)}…` : t;
}
