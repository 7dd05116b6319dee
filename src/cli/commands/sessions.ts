import { PROVIDERS } from "../../readers/agents.ts";
import { readCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { dim, oneLine, plural, providerCell, red, shortTime } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn sessions [--provider P]... [--project NAME]... [--since DATE|7d] [--until DATE] [--all] [--limit N] [--json] [--db PATH]

Lists indexed sessions, most recent first, with their counts. Subagent sessions (part of the session that
started them) are hidden unless --all is given.`;

export const sessionsCommand: Command = {
  name: "sessions",
  summary: "list indexed sessions with their counts",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      provider: { type: "string", multiple: true },
      project: { type: "string", multiple: true },
      since: { type: "string" },
      until: { type: "string" },
      all: { type: "boolean" },
      limit: { type: "string" },
      json: { type: "boolean" },
      db: { type: "string" },
    });
    const limit = positiveInt("--limit", values.limit) ?? 50;
    for (const p of values.provider ?? [])
      if (!(PROVIDERS as readonly string[]).includes(p))
        throw new UsageError(`unknown provider '${p}' (use ${PROVIDERS.join(", ")})`);
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const rows = app.sessions({
        limit,
        all: values.all === true,
        ...(values.provider ? { provider: values.provider } : {}),
        ...(values.project ? { project: values.project } : {}),
        ...(values.since !== undefined ? { since: values.since } : {}),
        ...(values.until !== undefined ? { until: values.until } : {}),
      });
      if (values.json) {
        writeJson(io, rows);
        return 0;
      }
      if (rows.length === 0) {
        io.stdout.write("no sessions match\n");
        return 0;
      }
      for (const s of rows) {
        const counts = `${plural(s.prompt_count, "prompt")}, ${plural(s.tool_count, "tool")}, ${plural(s.error_count, "error")}, ${plural(s.test_count, "check")}`;
        io.stdout.write(
          `${shortTime(s.updated_at)}  ${providerCell(s.provider)} ${(s.project ?? "").padEnd(16)} ${oneLine(s.title ?? "", 80)}${s.kind !== "main" ? ` (${s.kind})` : ""}${s.source_gone ? `  ${red(io, "source gone")}` : ""}\n`,
        );
        io.stdout.write(`  ${dim(io, `${s.session_id}  ${counts}`)}\n`);
      }
      return 0;
    } finally {
      app.close();
    }
  },
};
