/** The application layer as the CLI opens it: `--db` (relative to the working directory), notices on stderr. */
import { type Cairn, createCairn, type ReadCairn } from "../app/cairn.ts";
import { cliOptions } from "./index-app.ts";
import type { CliIo } from "./io.ts";

export function readCairn(io: CliIo, db: string | undefined): ReadCairn {
  return createCairn(cliOptions(io, db));
}

export function writeCairn(io: CliIo, db: string | undefined): Cairn {
  return createCairn({ ...cliOptions(io, db), mode: "write" });
}
