import { writeCairn } from "../app.ts";
import { naturalInt, parseFlags } from "../args.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn checkpoint <session> --step N [--label TEXT] [--at ID] [--json] [--db PATH]

Records an explicit checkpoint of step N for a session whose agent cannot write its own, linked to the session's
last event (or to --at). Recording step N again moves it. It lives in cairn's database, not in the transcript.`;

export const checkpointCommand: Command = {
  name: "checkpoint",
  summary: "record an explicit checkpoint (a step) for a session",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        step: { type: "string" },
        label: { type: "string" },
        at: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
      true,
    );
    const id = positionals[0];
    if (!id) throw new UsageError("give a session id or a unique prefix of one");
    const step = naturalInt("--step", values.step);
    if (step === undefined) throw new UsageError("give the step with --step N");
    const app = writeCairn(io, values.db, { json: values.json === true });
    try {
      const row = app.checkpoint({
        session: id,
        step,
        ...(values.label !== undefined ? { label: values.label } : {}),
        ...(values.at !== undefined ? { at: values.at } : {}),
      });
      if (values.json) writeJson(io, row);
      else
        io.stdout.write(
          `checkpoint: step ${step} of ${row.session_id} at @${row.ordinal} (${row.event_id})${row.label ? ` — ${row.label}` : ""}\n`,
        );
      return 0;
    } finally {
      app.close();
    }
  },
};
