import { cite } from "../../topology/citation.ts";
import { readCairn } from "../app.ts";
import { parseFlags, positiveInt } from "../args.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn resume verify <resumed-session> [--actions N] [--json] [--db PATH]

Checks a session that was started from a cairn brief: among its first N tool calls (default 5), repeats of a
failure the brief's ledger listed, re-reads of files whose state the brief carried (more than 3 is a finding) and
work on steps the brief had as complete. Prints a verdict (continuous, drifted, broken) with the evidence; exits 1
when broken.`;

export const verifyCommand: Command = {
  name: "resume verify",
  summary: "check that a session resumed from a brief continued where the brief left off",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      { actions: { type: "string" }, json: { type: "boolean" }, db: { type: "string" } },
      true,
    );
    const id = positionals[0];
    if (!id) throw new UsageError("give the resumed session's id or a unique prefix of it");
    const actions = positiveInt("--actions", values.actions);
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const r = await app.verify({ session: id, ...(actions ? { actions } : {}) });
      if (values.json) writeJson(io, r);
      else {
        io.stdout.write(
          `${r.verdict}: session ${r.session_id} resumed from ${r.brief.session_id} as of ${r.brief.at}${r.brief.step !== null ? ` (step ${r.brief.step})` : ""}\n`,
        );
        io.stdout.write(`${r.actions.length} actions inspected, ${r.rereads} re-reads of carried files\n`);
        for (const f of r.findings)
          io.stdout.write(
            `- ${f.kind} @${f.ordinal} ${cite(f.event_id)}: ${f.text} (ledger: ${f.ledger_cites.slice(-1).join(", ")})\n`,
          );
      }
      return r.verdict === "broken" ? 1 : 0;
    } finally {
      app.close();
    }
  },
};
