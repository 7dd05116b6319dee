import { parseArgs } from "node:util";
import { resolveSession } from "../../resume/session-ref.ts";
import { isDerived, resolveEventIn } from "../../resume/timeline.ts";
import { openIndexForReading } from "../db.ts";
import { type Command, UsageError, writeJson } from "../io.ts";

const USAGE = `Usage: cairn checkpoint <session> --step N [--label TEXT] [--at ID] [--json] [--db PATH]

Records an explicit checkpoint of step N for a session whose agent cannot write its own, linked to the session's
last event (or to --at). Recording step N again moves it. It lives in cairn's database, not in the transcript.`;

export const checkpointCommand: Command = {
  name: "checkpoint",
  summary: "record an explicit checkpoint (a step) for a session",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv);
    const id = positionals[0];
    if (!id) throw new UsageError("give a session id or a unique prefix of one");
    if (values.step === undefined) throw new UsageError("give the step with --step N");
    const step = Number(values.step);
    if (!Number.isInteger(step) || step < 0) throw new UsageError(`--step takes a step number, not '${values.step}'`);
    const store = openIndexForReading(values.db, io);
    try {
      const session = resolveSession(store, { id });
      const at = values.at
        ? resolveEventIn(store, session.session_id, values.at)
        : store
            .sessionEvents(session.session_id)
            .filter((e) => !isDerived(e))
            .at(-1);
      if (!at) throw new Error(`session ${session.session_id} has no events to link a checkpoint to`);
      // One checkpoint per step and session: recording the step again moves it rather than piling up.
      const row = {
        checkpoint_id: `${session.session_id}:step:${step}`,
        session_id: session.session_id,
        event_id: at.event_id,
        step,
        label: values.label ?? null,
        created_at: new Date().toISOString(),
      };
      store.putCheckpoint(row);
      if (values.json) writeJson(io, { ...row, ordinal: at.ordinal });
      else
        io.stdout.write(
          `checkpoint: step ${step} of ${session.session_id} at @${at.ordinal} (${at.event_id})${row.label ? ` — ${row.label}` : ""}\n`,
        );
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
      allowPositionals: true,
      options: {
        step: { type: "string" },
        label: { type: "string" },
        at: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
