/** The application layer as the CLI opens it: `--db` (relative to the working directory), notices on stderr. */
import { type Cairn, type CairnOptions, createCairn, type ReadCairn } from "../app/cairn.ts";
import type { CliIo } from "./io.ts";

function options(io: CliIo, db: string | undefined): CairnOptions {
  return {
    ...(db !== undefined ? { db } : {}),
    env: io.env,
    cwd: io.cwd,
    onNotice: (notice) => io.stderr.write(`cairn: note: ${notice}\n`),
  };
}

export function readCairn(io: CliIo, db: string | undefined): ReadCairn {
  return createCairn(options(io, db));
}

export function writeCairn(io: CliIo, db: string | undefined): Cairn {
  return createCairn({ ...options(io, db), mode: "write" });
}
