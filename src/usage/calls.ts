/**
 * Which recorded calls count. An agent may write one model call more than once: Claude Code repeats a message on
 * every line of it (the output count growing while it streams) and in the file of a session resumed or forked from
 * it, Codex and pi forks replay their parent's records. Copies share a `call` name: the largest copy counts, a
 * main conversation's before a subagent's replay of it, and among equals the first read. A row with no name counts.
 */
import type { UsageCall } from "../topology/types.ts";

export function rowTotal(r: UsageCall): number {
  return r.input + r.output + r.cache_read + r.cache_write + r.cache_write_1h;
}

/** Whether copy `a` is kept over copy `b` of the same call. */
function better(a: UsageCall, b: UsageCall): boolean {
  if (a.sidechain !== b.sidechain) return !a.sidechain;
  const ta = rowTotal(a);
  const tb = rowTotal(b);
  if (ta !== tb) return ta > tb;
  return a.fast && !b.fast;
}

/**
 * The rows that count, in the order given (each call at the place of its first copy): among equal copies the first
 * given, so rows come in the order the store keeps them (by file and line).
 */
export function countedCalls(rows: readonly UsageCall[]): UsageCall[] {
  const kept = new Map<string, number>();
  const out: UsageCall[] = [];
  for (const r of rows) {
    if (rowTotal(r) === 0) continue;
    if (r.call === null) {
      out.push(r);
      continue;
    }
    const at = kept.get(r.call);
    if (at === undefined) {
      kept.set(r.call, out.length);
      out.push(r);
    } else if (better(r, out[at]!)) out[at] = r;
  }
  return out;
}
