import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { dim } from "../format.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn checkpoints <session> [--json] [--db PATH]

Lists a session's checkpoints with their step: its resume points (compactions, branch summaries, handoffs, steps
its workflow recorded) and those recorded with 'cairn checkpoint'. 'cairn resume --step N' resumes from the latest
checkpoint of step N.`;

export const checkpointsCommand: Command = {
  name: "checkpoints",
  summary: "list a session's checkpoints and their steps",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, db: { type: "string" } }, true);
    const id = positionals[0];
    if (!id) throw new UsageError("give a session id or a unique prefix of one");
    const app = readCairn(io, values.db, { json: values.json === true });
    try {
      const answer = app.checkpoints(id);
      if (values.json) {
        writeJson(io, answer);
        return 0;
      }
      const { session_id, checkpoints: rows } = answer;
      if (rows.length === 0) {
        io.stdout.write(
          `session ${session_id} has no checkpoints; record one with 'cairn checkpoint ${session_id} --step N'\n`,
        );
        return 0;
      }
      io.stdout.write(`${dim(io, "step  position  kind          event             label")}\n`);
      for (const c of rows)
        io.stdout.write(
          `${String(c.step).padStart(4)}  ${`@${c.ordinal}`.padStart(8)}  ${c.kind.padEnd(12)}  ${c.event_id.padEnd(16)}  ${c.label ?? ""}\n`,
        );
      return 0;
    } finally {
      app.close();
    }
  },
};
