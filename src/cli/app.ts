/** The application layer as the CLI opens it: `--db` (relative to the working directory), notices on stderr. */
import { type Cairn, createCairn, type ReadCairn } from "../app/cairn.ts";
import { cliOptions } from "./index-app.ts";
import { type CliIo, UsageError } from "./io.ts";

export interface ReadOptions {
  /** The command prints JSON: answers keep their text as data (JSON escapes it). Else they go to a terminal. */
  json?: boolean;
  /** `--reveal-secrets`: a person at a terminal asked to see secrets as written. */
  reveal?: boolean;
}

export function readCairn(io: CliIo, db: string | undefined, opts: ReadOptions = {}): ReadCairn {
  return createCairn({
    ...cliOptions(io, db),
    exit: opts.json ? "data" : "terminal",
    ...(opts.reveal ? { reveal: revealAllowed(io) } : {}),
  });
}

export function writeCairn(io: CliIo, db: string | undefined, opts: ReadOptions = {}): Cairn {
  return createCairn({ ...cliOptions(io, db), mode: "write", exit: opts.json ? "data" : "terminal" });
}

/** The flag every command that shows transcript text takes, with what it does. */
export const REVEAL_FLAG = { "reveal-secrets": { type: "boolean" } } as const;
export const REVEAL_USAGE =
  "  --reveal-secrets  show secrets as written (only at a terminal; by default each is [secret:<kind>:<fingerprint>])";

/**
 * Secrets are shown as written only to a person who asked at a terminal: a program (an agent running cairn from
 * its shell, a script) has no terminal on either end, and gets the markers whatever it asks.
 */
function revealAllowed(io: CliIo): true {
  if (io.stdin?.isTTY === true || io.stdout.isTTY === true) return true;
  throw new UsageError(
    "--reveal-secrets is for a person at a terminal; neither standard input nor output is one here",
    "run it in a terminal, or leave the flag out to see each secret as its marker",
  );
}
