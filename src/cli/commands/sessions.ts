import { parseArgs } from "node:util";
import { parseTime, QueryError } from "../../search/query.ts";
import type { SessionFilter } from "../../store/types.ts";
import { PROVIDERS, type Provider } from "../../topology/types.ts";
import { openIndexForReading } from "../db.ts";
import { dim, red, shortTime } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn sessions [--provider P]... [--project NAME]... [--since DATE|7d] [--until DATE] [--all] [--limit N] [--json] [--db PATH]

Lists indexed sessions, most recent first, with their counts. Subagent and 'codex exec' sessions are hidden
unless --all is given.`;

export const sessionsCommand: Command = {
  name: "sessions",
  summary: "list indexed sessions with their counts",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parse(argv);
    const now = new Date();
    const filter: SessionFilter = { limit: values.limit ? Number(values.limit) : 50 };
    if (!Number.isInteger(filter.limit) || (filter.limit ?? 0) < 1)
      throw new UsageError(`--limit must be a positive whole number, not '${values.limit}'`);
    if (values.provider) {
      for (const p of values.provider)
        if (!(PROVIDERS as readonly string[]).includes(p))
          throw new UsageError(`unknown provider '${p}' (use ${PROVIDERS.join(", ")})`);
      filter.provider = values.provider as Provider[];
    }
    if (values.project) filter.project = values.project;
    try {
      if (values.since) filter.since = parseTime(values.since, now, `--since ${values.since}`);
      if (values.until) filter.until = parseTime(values.until, now, `--until ${values.until}`, true);
    } catch (error) {
      if (error instanceof QueryError) throw new UsageError(error.message);
      throw error;
    }
    if (!values.all) filter.kinds = ["main", "fork"];
    const store = openIndexForReading(values.db, io);
    try {
      const rows = store.listSessions(filter);
      if (values.json) {
        writeJson(io, rows);
        return 0;
      }
      if (rows.length === 0) {
        io.stdout.write("no sessions match\n");
        return 0;
      }
      for (const s of rows) {
        const counts = `${s.prompt_count} prompts, ${s.tool_count} tools, ${s.error_count} errors, ${s.test_count} checks`;
        io.stdout.write(
          `${shortTime(s.updated_at)}  ${s.provider.padEnd(6)} ${(s.project ?? "").padEnd(16)} ${s.session_id}${s.kind !== "main" ? ` (${s.kind})` : ""}${s.source_gone ? `  ${red(io, "source gone")}` : ""}\n`,
        );
        io.stdout.write(`  ${s.title ? `${s.title.slice(0, 80)}  ` : ""}${dim(io, counts)}\n`);
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
      options: {
        provider: { type: "string", multiple: true },
        project: { type: "string", multiple: true },
        since: { type: "string" },
        until: { type: "string" },
        all: { type: "boolean" },
        limit: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
