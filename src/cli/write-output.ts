/**
 * Writes a command's --output file whole or not at all: into a temporary file beside it, then renamed over it, so
 * that a full disk or Ctrl-C never leaves half a document where a whole one is expected. A device or a pipe
 * (/dev/stdout, a FIFO) is written in place, never replaced. What fails is one line saying what and where.
 */
import { renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CairnError } from "../common/errors.ts";

export function writeOutput(path: string, text: string): void {
  const inPlace = isDeviceOrPipe(path);
  const tmp = inPlace ? path : join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    if (!inPlace) renameSync(tmp, path);
  } catch (error) {
    if (!inPlace) rmSync(tmp, { force: true });
    throw outputError(path, error);
  }
}

function isDeviceOrPipe(path: string): boolean {
  try {
    const s = statSync(path);
    return !s.isFile() && !s.isDirectory();
  } catch {
    return false;
  }
}

/** The system's error said in words, with what to do: never the raw `ENOSPC: …, write` text. */
function outputError(path: string, error: unknown): CairnError {
  const code = (error as NodeJS.ErrnoException).code;
  const hint = "write somewhere else with --output, or leave it out to print to standard output";
  switch (code) {
    case "ENOENT":
      return new CairnError("failure", `cannot write ${path}: the folder ${dirname(path)} does not exist`, hint);
    case "ENOTDIR":
      return new CairnError("failure", `cannot write ${path}: part of that path is a file, not a folder`, hint);
    case "EISDIR":
      return new CairnError("failure", `cannot write ${path}: it is a folder; give a file name`, hint);
    case "ENOSPC":
    case "EDQUOT":
      return new CairnError(
        "failure",
        `cannot write ${path}: no space left on the device`,
        `free some space, or ${hint}`,
      );
    case "EACCES":
    case "EPERM":
      return new CairnError("failure", `cannot write ${path}: permission denied`, hint);
    case "EROFS":
      return new CairnError("failure", `cannot write ${path}: the file system is read-only`, hint);
    default:
      return new CairnError("failure", `cannot write ${path}: ${code ?? (error as Error).message}`, hint);
  }
}
