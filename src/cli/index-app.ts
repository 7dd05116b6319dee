/**
 * The app as `cairn index` opens it: the indexing methods without the read side (search, timeline, secrets, resume),
 * whose modules a run that finds nothing to do would only load (docs/performance.md, fifth round).
 */
import { type CairnOptions, openCore } from "../app/core.ts";
import { type IndexApp, indexAppOf } from "../app/index-app.ts";
import type { CliIo } from "./io.ts";

/** `--db` (relative to the working directory), notices on stderr. */
export function cliOptions(io: CliIo, db: string | undefined): CairnOptions {
  return {
    ...(db !== undefined ? { db } : {}),
    env: io.env,
    cwd: io.cwd,
    onNotice: (notice) => io.stderr.write(`cairn: note: ${notice}\n`),
  };
}

export function writeIndexApp(io: CliIo, db: string | undefined): IndexApp {
  return indexAppOf(openCore({ ...cliOptions(io, db), mode: "write" }));
}
