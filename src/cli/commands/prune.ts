import { parseArgs } from "node:util";
import { acquireLock } from "../../indexer/lock.ts";
import { openStore } from "../../store/sqlite-store.ts";
import { dbPathOf } from "../db.ts";
import { shortTime } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn prune [--dry-run] [--json] [--db PATH]

Forgets the sessions whose transcript files are gone from disk. cairn keeps them when an agent deletes or moves
its transcripts (they are marked 'source gone' in sessions, timelines and search results); this removes them and
their events for good. --dry-run lists what would go.`;

export const pruneCommand: Command = {
  name: "prune",
  summary: "forget sessions whose transcripts are gone from disk",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parse(argv);
    const dbPath = dbPathOf(values.db, io);
    const lock = await acquireLock(dbPath, 60_000, (e) => {
      if (!values.json) io.stderr.write(`cairn prune: waiting for pid ${e.pid}, which is indexing ${dbPath}…\n`);
    });
    try {
      const store = openStore(dbPath);
      try {
        const gone = store.goneFiles();
        if (values["dry-run"]) {
          if (values.json) writeJson(io, { dry_run: true, files: gone });
          else if (gone.length === 0) io.stdout.write("nothing to prune: every indexed transcript is still on disk\n");
          else
            for (const f of gone)
              io.stdout.write(`${shortTime(f.gone_at)}  ${String(f.sessions).padStart(3)} session(s)  ${f.path}\n`);
          return 0;
        }
        const pruned = store.transaction(() => store.pruneGone());
        if (values.json) writeJson(io, { dry_run: false, ...pruned });
        else
          io.stdout.write(
            `forgot ${pruned.files} gone file(s): ${pruned.sessions} session(s), ${pruned.events.toLocaleString("en-US")} events\n`,
          );
        return 0;
      } finally {
        store.close();
      }
    } finally {
      lock.release();
    }
  },
};

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { "dry-run": { type: "boolean" }, json: { type: "boolean" }, db: { type: "string" } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
