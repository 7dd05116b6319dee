import { runTui } from "../../tui/run.ts";
import { readCairn } from "../app.ts";
import { parseFlags } from "../args.ts";
import { type Command, UsageError } from "../io.ts";
import { resumeCommand } from "./resume.ts";

const USAGE = `Usage: cairn tui [--db PATH]

Browse, search and resume in the terminal: sessions (or search hits) on the left, the open session's Timeline,
Event, Brief, Threads and Ask tabs on the right. '/' searches as you type, Enter opens, Tab switches panes, A asks
a model (as 'cairn ask'), R runs AI Resume, q goes back, ? lists the keys. 'cairn' alone opens it after indexing
when run in a terminal. See docs/tui.md.`;

export const tuiCommand: Command = {
  name: "tui",
  summary: "browse, search and resume sessions in a terminal UI",
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(argv, { db: { type: "string" } });
    return openTui(io, values.db);
  },
};

/** Opens the terminal UI on the index; a resume asked for in it runs once the UI is gone. */
export async function openTui(io: Parameters<Command["run"]>[1], db: string | undefined): Promise<number> {
  if (!process.stdin.isTTY || !io.stdout.isTTY)
    throw new UsageError(
      "cairn tui needs a terminal (stdin and stdout a TTY)",
      "use 'cairn sessions' or 'cairn timeline' in scripts",
    );
  const app = readCairn(io, db);
  let exit: Awaited<ReturnType<typeof runTui>>;
  try {
    app.sessions({ limit: 1 });
    exit = await runTui({
      app,
      color: io.color === true,
      cwd: io.cwd,
      env: io.env,
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } finally {
    app.close();
  }
  if (exit.resume) return resumeCommand.run([...exit.resume, ...(db ? ["--db", db] : [])], io);
  return 0;
}
