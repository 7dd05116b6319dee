import { writeCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { noun, plural, pluralLarge, shortTime } from "../format.ts";
import { type Command, writeJson } from "../io.ts";

const USAGE = `Usage: cairn prune [--dry-run] [--json] [--db PATH]

Forgets the sessions whose transcript files are gone from disk. cairn keeps them when an agent deletes or moves
its transcripts (they are marked 'source gone' in sessions, timelines and search results); this removes them and
their events for good. --dry-run lists what would go.`;

export const pruneCommand: Command = {
  name: "prune",
  summary: "forget sessions whose transcripts are gone from disk",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      db: { type: "string" },
    });
    const app = writeCairn(io, values.db, { json: values.json === true });
    try {
      const answer = await app.prune({
        dry_run: values["dry-run"] === true,
        onWait: (pid) => {
          if (!values.json) io.stderr.write(`cairn prune: waiting for pid ${pid}, which is indexing ${app.dbPath}…\n`);
        },
      });
      if (answer.pruned === null) {
        if (values.json) writeJson(io, { dry_run: true, files: answer.files });
        else if (answer.files.length === 0)
          io.stdout.write("nothing to prune: every indexed transcript is still on disk\n");
        else
          for (const f of answer.files)
            io.stdout.write(
              `${shortTime(f.gone_at)}  ${String(f.sessions).padStart(3)} ${noun(f.sessions, "session")}  ${f.path}\n`,
            );
        return 0;
      }
      const p = answer.pruned;
      if (values.json) writeJson(io, { dry_run: false, ...p });
      else
        io.stdout.write(
          `forgot ${plural(p.files, "gone file")}: ${plural(p.sessions, "session")}, ${pluralLarge(p.events, "event")}\n`,
        );
      return 0;
    } finally {
      app.close();
    }
  },
};
