import type { SharedEntity, Thread } from "../../threads/types.ts";
import { readCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { bold, dim, green, oneLine, plural, providerCell, red, shortTime } from "../format.ts";
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
    const { values, positionals } = parseFlags(
      argv,
      {
        project: { type: "string", multiple: true },
        all: { type: "boolean" },
        limit: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
      true,
    );
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const limit = positiveInt("--limit", values.limit) ?? 20;
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const result = await app.threads({
        ...(values.project?.[0] ? { project: values.project[0] } : {}),
        include_single: values.all === true,
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
      app.close();
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
  io.stdout.write(`  ${dim(io, t.label_reason)}\n  ${t.shares}\n`);
  for (const s of t.sessions) {
    const title = s.title ? `  ${oneLine(s.title, 70)}` : "";
    if (s.folded_into !== null) {
      io.stdout.write(`      ${dim(io, `└ ${s.kind} ${s.session_id}`)}\n`);
      continue;
    }
    io.stdout.write(
      `  ${providerCell(s.provider)} ${(s.project ?? "").padEnd(16)} ${s.session_id}  ${dim(io, shortTime(s.started_at))}${title}\n`,
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
