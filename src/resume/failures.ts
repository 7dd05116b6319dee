/**
 * Repeated failures collapsed to one line each (resume-method §4.3). Failures group by
 * `canonical command | path | error signature`; each group keeps its count, first and last position and status.
 * Resolution:
 * - a later successful run of the same command (or, for a command that is not a check, of the same command head)
 *   resolves it, also as a part of a compound line whose exit status speaks for it (`git add . && git rebase
 *   --continue` resolves a failed `git rebase origin/main`); a passing run of any check resolves every failed check;
 * - a later failing run of the same command whose output no longer reports the error answers it: the run got past
 *   it (a type check that now fails elsewhere);
 * - a later successful edit or write of the same file resolves a failed file-tool call;
 * - the same failure after it was resolved reopens the group.
 * Misses while looking around (a `grep` that found nothing, `ls` of a missing path: `answersNo`) are not failures
 * of the work; a read that failed (`cat` of a missing file) is.
 */

import { analyzeCommand, answersNo } from "../topology/command.ts";
import { normalizeSignature } from "../topology/error-signature.ts";
import { parseShell } from "../topology/shell.ts";
import { stripAnsi } from "../topology/text.ts";
import type { SessionEvent } from "../topology/types.ts";
import { commandHead } from "./entities.ts";
import { displayPath } from "./file-states.ts";
import type { LedgerFailure } from "./ledger-types.ts";

const FILE_WRITES = new Set(["edit", "write", "move"]);

interface Group extends LedgerFailure {
  head: string | null;
}

export function failuresOf(
  events: readonly SessionEvent[],
  byId: ReadonlyMap<string, SessionEvent>,
  cwd: string | null,
): LedgerFailure[] {
  const groups = new Map<string, Group>();
  const order: Group[] = [];
  const withError = new Set<string>();
  for (const e of events) if (e.event_type === "error" && e.parent_event_id) withError.add(e.parent_event_id);

  const fail = (e: SessionEvent, f: Omit<Group, "count" | "first" | "last" | "status" | "resolvedBy" | "cites">) => {
    let g = groups.get(f.key);
    if (!g) {
      g = { ...f, count: 0, first: e.ordinal, last: e.ordinal, status: "open", resolvedBy: null, cites: [] };
      groups.set(f.key, g);
      order.push(g);
    }
    g.count++;
    g.last = e.ordinal;
    g.lastLine = f.lastLine;
    g.status = "open";
    g.resolvedBy = null;
    g.cites.push(e.event_id);
  };
  const resolve = (e: SessionEvent, match: (g: Group) => boolean, failed = false) => {
    for (const g of order)
      if (g.status === "open" && match(g)) {
        g.status = "resolved";
        g.resolvedBy = { id: e.event_id, ordinal: e.ordinal, ...(failed ? { failed: true as const } : {}) };
      }
  };

  for (const e of events) {
    switch (e.event_type) {
      case "error": {
        const result = e.parent_event_id ? byId.get(e.parent_event_id) : undefined;
        // agent-level errors (aborted turns, API errors, which hang off the assistant message) are not failures
        // of the work; a failure the user pasted into a message is evidence like a tool's own
        const pasted = e.meta["pasted"] === true && result?.event_type === "user_message";
        if (!result || (result.event_type !== "tool_result" && !pasted)) continue;
        // The agent's own trouble (an overloaded API and its retries) follows a tool result in the log without
        // being that tool's failure: only what the tool or the user said counts.
        if (e.role === "system") continue;
        const signature = typeof e.meta["signature"] === "string" ? (e.meta["signature"] as string) : e.text;
        const command = e.command ?? result.command;
        const head = command ? commandHead(command) : null;
        // A search that found nothing is looking around, not working; a read of a missing file is a failure.
        if (command && !pasted && answersNo(command, exitCodeOf(result))) continue;
        if (command && !pasted) {
          const still = reported(result.text);
          resolve(e, (g) => g.command === command && g.path === null && !still(g.signature), true);
        }
        const call = result.parent_event_id ? byId.get(result.parent_event_id) : undefined;
        const path = command || pasted ? null : (result.file_path ?? null);
        const tool = pasted ? "pasted by the user" : (e.tool_name ?? result.tool_name ?? "tool");
        fail(e, {
          key: `${command ?? tool}|${path ?? ""}|${signature}`,
          command: command ?? tool,
          path: path ? displayPath(path, cwd) : null,
          signature,
          code: typeof e.meta["code"] === "string" ? (e.meta["code"] as string) : null,
          lastLine: e.text,
          // A failure the user reported is answered, as far as a log can tell, by the next passing check.
          isCheck: typeof call?.meta["family"] === "string" || pasted,
          head,
          ...(pasted ? { pasted: true as const } : {}),
        });
        break;
      }
      case "test_result": {
        if (e.status === "pass") resolve(e, (g) => g.isCheck);
        else if (e.status === "fail" && e.parent_event_id && !withError.has(e.parent_event_id)) {
          // A failing report from a run that exited cleanly: no error event stands for it.
          const lines = Array.isArray(e.meta["error_lines"]) ? (e.meta["error_lines"] as string[]) : [];
          const failed = typeof e.meta["failed"] === "number" ? e.meta["failed"] : null;
          const line = lines[0] ?? (failed !== null ? `${failed} failed` : "failed");
          const command = e.command ?? "check";
          fail(e, {
            key: `${command}||${normalizeSignature(line)}`,
            command,
            path: null,
            signature: normalizeSignature(line),
            code: null,
            lastLine: line,
            isCheck: true,
            head: commandHead(command),
          });
        }
        break;
      }
      case "command": {
        if (e.status !== "ok" || !e.command) break;
        // The event's text is the line as run; its parts are compared in canonical form, like the failures.
        const line = e.text || e.command;
        const parts = succeededParts(line).map((p) => analyzeCommand(p).canonical);
        const heads = new Set(parts.map(commandHead).filter((h) => h !== null));
        // A line of one command is its canonical form, however it was quoted.
        const whole = parseShell(line).length === 1 && e.command;
        resolve(
          e,
          (g) =>
            g.command === whole || parts.includes(g.command) || (!g.isCheck && g.head !== null && heads.has(g.head)),
        );
        break;
      }
      case "file_action": {
        if (e.status === "error" || !e.file_path || !FILE_WRITES.has(String(e.meta["op"]))) break;
        const path = displayPath(e.file_path, cwd);
        resolve(e, (g) => g.path === path);
        break;
      }
    }
  }
  // Open first (what the next agent must not repeat), then the dead ends already handled; newest first in each.
  return order
    .map(({ head: _head, ...g }) => g)
    .sort((a, b) => (a.status === b.status ? b.last - a.last : a.status === "open" ? -1 : 1));
}

/**
 * The parts of a command line that its zero exit status proves succeeded: the last pipeline and those chained to
 * it by `&&` (`a; b && c` proves `b` and `c`, not `a`).
 */
function succeededParts(command: string): string[] {
  const items = parseShell(command);
  const out: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (i < items.length - 1 && item.next !== "&&") break;
    out.push(item.pipeline.map((c) => c.words.join(" ")).join(" | "));
  }
  return out;
}

/** Outputs longer than this are clipped in the log's reading of them: what they no longer report cannot be told. */
const MAX_OUTPUT = 200_000;
/** A signature is still reported when a line of the output, normalised, holds its beginning. */
const SIGNATURE_PREFIX = 60;

/** Whether an output still reports a failure signature; an output too long to read whole reports every one. */
function reported(output: string): (signature: string) => boolean {
  if (output.length > MAX_OUTPUT) return () => true;
  let normal: string[] | null = null;
  return (signature) => {
    normal ??= stripAnsi(output)
      .split(/\r?\n|\r/)
      .map((l) => normalizeSignature(l.replace(/<\/?[a-z_]+>/g, "")));
    const head = signature.slice(0, SIGNATURE_PREFIX);
    return normal.some((l) => l.includes(head));
  };
}

/** The exit status a tool result recorded, or null. */
export function exitCodeOf(result: SessionEvent): number | null {
  const code = result.meta["exit_code"];
  return typeof code === "number" && Number.isInteger(code) ? code : null;
}

/** A failure's error as people read it: the first line of what the tool wrote, on one line. */
export function errorLine(text: string): string {
  return (text.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
}
