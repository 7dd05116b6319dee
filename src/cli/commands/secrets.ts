import { readCairn, writeCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { dim, plural, providerCell, shortTime } from "../format.ts";
import { type Command, writeJson } from "../io.ts";

const USAGE = `Usage: cairn secrets [--since DATE|30d] [--session ID] [--limit N] [--json] [--db PATH]
       cairn secrets --purge <finding|fingerprint|session> [--json] [--db PATH]

Lists the secrets found in your agents' history (API keys, tokens, private keys, passwords in URLs and .env
files): when, which session, agent, event and file, the kind and a fingerprint (the first 12 hex digits of the
value's SHA-256), never the value. The same key in two places has the same fingerprint.
--purge rewrites the local index without the values of one finding (or of every secret in a session); the
agents' own transcript files are never touched. See docs/secrets.md.`;

export const secretsCommand: Command = {
  name: "secrets",
  summary: "list the secrets found in agent history (never their values); --purge removes them from the index",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      since: { type: "string" },
      session: { type: "string" },
      limit: { type: "string" },
      purge: { type: "string" },
      json: { type: "boolean" },
      db: { type: "string" },
    });
    if (values.purge !== undefined) {
      const app = writeCairn(io, values.db, { json: values.json === true });
      try {
        const answer = await app.purgeSecrets({ target: values.purge });
        if (values.json) writeJson(io, answer);
        else io.stdout.write(`purged: ${plural(answer.events, "stored event")} rewritten without the secret values\n`);
        return 0;
      } finally {
        app.close();
      }
    }
    const limit = positiveInt("--limit", values.limit);
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const answer = app.secrets({
        ...(values.since !== undefined ? { since: values.since } : {}),
        ...(values.session !== undefined ? { session: values.session } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      if (values.json) {
        writeJson(io, answer);
        return 0;
      }
      if (answer.findings.length === 0) {
        io.stdout.write("no secrets found in the indexed history\n");
        return 0;
      }
      for (const f of answer.findings) {
        const where = f.file_path ?? f.tool_name ?? f.event_type;
        io.stdout.write(
          `${shortTime(f.timestamp)}  ${f.kind.padEnd(16)} ${f.fingerprint}  ${providerCell(f.provider)} ${f.session_short}  ${f.event_id}  ${dim(io, `${where}  ${f.source_file}:${f.source_line}`)}\n`,
        );
      }
      io.stdout.write(
        `${plural(answer.findings.length, "finding")} of ${plural(answer.distinct, "distinct secret")}${answer.truncated ? " (more events hold secrets: raise --limit)" : ""}\n`,
      );
      return 0;
    } finally {
      app.close();
    }
  },
};
