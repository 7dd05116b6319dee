import { parseArgs } from "node:util";
import { listThreads } from "../../threads/list.ts";
import type { SharedEntity, Thread } from "../../threads/types.ts";
import { openIndexForReading } from "../db.ts";
import { bold, dim, green, plural, red, shortTime } from "../format.ts";
import { type CliIo, type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn threads [--project NAME]... [--all] [--limit N] [--json] [--db PATH]

Lists work threads, most recently active first: sessions of any agent joined because they share at least two
rare files, error signatures or branches (files like package.json, default branches and anything most sessions
touch never count). Subagent and 'codex exec' sessions belong to the session that started them. Each thread shows
its id, open/closed label, time span, sessions and the entities they share; 'cairn timeline --thread ID' shows
its events merged. --all also lists sessions that joined nothing. Rules: docs/threads.md.`;

const SHOWN_SHARED = 8;

export const threadsCommand: Command = {
  name: "threads",
  summary: "list work threads: sessions of any agent joined by the rare files, errors and branches they share",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError(`--limit must be a positive whole number, not '${values.limit}'`);
    const store = openIndexForReading(values.db, io);
    try {
      const result = listThreads(store, {
        ...(values.project ? { project: values.project } : {}),
        includeSingle: values.all === true,
        limit,
      });
      if (values.json) {
        writeJson(io, result);
        return 0;
      }
      if (result.threads.length === 0) {
        io.stdout.write(
          values.all || values.project
            ? "no threads match\n"
            : "no threads yet: no two sessions share two rare files, errors or branches (--all lists every session)\n",
        );
        return 0;
      }
      result.threads.forEach((t, i) => {
        if (i > 0) io.stdout.write("\n");
        writeThread(io, t);
      });
      if (result.total > result.threads.length)
        io.stdout.write(dim(io, `\n${result.total - result.threads.length} more; raise --limit to see them\n`));
      return 0;
    } finally {
      store.close();
    }
  },
};

function writeThread(io: CliIo, t: Thread): void {
  const label = t.label === "open" ? red(io, "open") : green(io, "closed");
  const units = t.sessions.filter((s) => s.folded_into === null).length;
  const folded = t.sessions.length - units;
  const span = `${shortTime(t.started_at)} → ${shortTime(t.updated_at)}`;
  io.stdout.write(
    `${bold(io, `thread ${t.thread_id}`)}  ${label}  ${span}  ${plural(units, "session")}${folded > 0 ? ` (+${folded} folded)` : ""}\n`,
  );
  io.stdout.write(`  ${dim(io, t.label_reason)}\n`);
  for (const s of t.sessions) {
    const title = s.title ? `  ${oneLine(s.title, 70)}` : "";
    if (s.folded_into !== null) {
      io.stdout.write(`      ${dim(io, `└ ${s.kind} ${s.session_id}`)}\n`);
      continue;
    }
    io.stdout.write(
      `  ${s.provider.padEnd(6)} ${(s.project ?? "").padEnd(16)} ${s.session_id}  ${dim(io, shortTime(s.started_at))}${title}\n`,
    );
  }
  if (t.shared.length > 0) {
    const shown = t.shared.slice(0, SHOWN_SHARED).map(describeShared);
    const more = t.shared.length > SHOWN_SHARED ? `, +${t.shared.length - SHOWN_SHARED} more` : "";
    io.stdout.write(`  shared: ${shown.join(", ")}${more}\n`);
  }
}

function describeShared(e: SharedEntity): string {
  const name = e.kind === "error_signature" ? `error "${oneLine(e.display, 60)}"` : `${e.kind} ${e.display}`;
  return `${name} (${e.sessions})`;
}

function oneLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: "string", multiple: true },
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
