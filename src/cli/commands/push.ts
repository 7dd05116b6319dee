import { resolve } from "node:path";
import { dbPathFor } from "../../app/open.ts";
import { runPush } from "../../app/push.ts";
import { isPgUrl } from "../../store/pg/url.ts";
import { parseFlags } from "../args.ts";
import { plural, pluralLarge } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn push --to postgres://USER@HOST/DB [--redact] [--db PATH] [--json]

Sends what the local index has that a team index on PostgreSQL lacks: every session the team index does not hold
with the same events, each whole in one transaction with its evidence bundles and their vectors. Safe to repeat (a second push sends nothing) and to stop
(the next push sends the rest), so it can run from cron or a hook. Credentials come from the URL, PG* variables
or ~/.pgpass (docs/team-index.md).
  --to URL     the team index
  --redact     replace secrets with their markers and your home folder with ~ in everything sent
  --db PATH    the local index (default $CAIRN_DB, else $XDG_DATA_HOME/cairn/cairn.db)`;

export const pushCommand: Command = {
  name: "push",
  summary: "send what the local index has to a team index on PostgreSQL",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      to: { type: "string" },
      redact: { type: "boolean" },
      db: { type: "string" },
      json: { type: "boolean" },
    });
    if (!values.to) throw new UsageError("--to postgres://… is required");
    const from = dbPathFor(values.db === undefined ? undefined : resolve(io.cwd, values.db), {
      ...io.env,
      // the team index is where it goes, never where it comes from
      CAIRN_DB: isPgUrl(io.env["CAIRN_DB"] ?? "") ? undefined : io.env["CAIRN_DB"],
    });
    const answer = runPush({ from, to: values.to, env: io.env, redact: values.redact === true });
    if (values.json) writeJson(io, answer);
    else
      io.stdout.write(
        `pushed ${plural(answer.sent, "session")} (${pluralLarge(answer.events, "new event")}, ${pluralLarge(answer.bundles, "evidence bundle")}, ${pluralLarge(answer.vectors, "vector")}) to ${answer.to}; ${answer.unchanged} already there${answer.redacted ? "; secrets and home paths redacted" : ""}\n`,
      );
    return 0;
  },
};
