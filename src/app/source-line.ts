/**
 * One line of a transcript as the agent wrote it, read from the file: what `cairn show --source` prints. The
 * index keeps a very long string's head and tail only (readers/long-strings.ts); the transcript has the whole of
 * it while it exists. Read straight from the agent's file, it is an answer like any other: it passes the shaping
 * step (secrets scanned for and redacted, control characters made inert for a terminal) before it is printed.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { CairnError } from "../common/errors.ts";
import { eventFiles, eventFolderOf } from "../readers/event-folder.ts";

export interface SourceLineAnswer {
  file: string;
  line: number;
  /** The line without its newline, decoded as UTF-8. */
  text: string;
}

/** Line `line` of `path` whole; `not_found` when the transcript is gone or has no such line. */
export function readSourceLine(path: string, line: number): SourceLineAnswer {
  const parts: Buffer[] = [];
  const found = streamSourceLine(path, line, (bytes) => parts.push(bytes));
  if (found === "gone") throw new CairnError("not_found", `the transcript is gone: ${path}`);
  if (found === "no-line") throw new CairnError("not_found", `${path} has no line ${line}`);
  return { file: path, line, text: Buffer.concat(parts).toString("utf8") };
}

const CHUNK = 1024 * 1024;

/**
 * Writes line `line` (1-based) of `path` without its newline: "gone" when the transcript no longer exists,
 * "no-line" when it has fewer lines (or is a database, whose records have no lines). A transcript kept as a folder of
 * event files gives the event file the line stands for.
 */
export function streamSourceLine(
  path: string,
  line: number,
  write: (bytes: Buffer) => void,
): "ok" | "gone" | "no-line" {
  if (!existsSync(path)) return "gone";
  if (line < 1) return "no-line";
  const folder = eventFolderOf(path);
  if (folder !== null) return eventFileText(folder, line, write);
  return streamLine(path, line, write) ? "ok" : "no-line";
}

/** A transcript kept as a folder of event files (`Reader.eventFolder`): line `line` is the `line`-th file, whole. */
function eventFileText(folder: string, line: number, write: (bytes: Buffer) => void): "ok" | "no-line" {
  let names: string[];
  try {
    names = eventFiles(readdirSync(folder));
  } catch {
    return "no-line";
  }
  const name = names[line - 1];
  if (name === undefined) return "no-line";
  write(readFileSync(join(folder, name)));
  return "ok";
}

function streamLine(path: string, line: number, write: (bytes: Buffer) => void): boolean {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let at = 1;
    let found = line === 1;
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) return found;
      pos += n;
      const view = buf.subarray(0, n);
      let from = 0;
      while (from < n) {
        const nl = view.indexOf(10, from);
        if (at === line) {
          const end = nl === -1 ? n : nl;
          if (end > from) write(Buffer.from(view.subarray(from, end)));
          if (nl !== -1) return true;
          break;
        }
        if (nl === -1) break;
        at++;
        from = nl + 1;
        if (at === line) found = true;
      }
    }
  } finally {
    closeSync(fd);
  }
}
