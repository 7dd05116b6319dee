/**
 * The tokens of Codex's model calls: `event_msg` `token_count` records, each with the call's own counts
 * (`last_token_usage`) and the session's running total (`total_token_usage`). Codex writes the same record again
 * when nothing new was used (a turn's end, a rate-limit update): a record whose running total did not change is no
 * call. A fork's rollout replays its parent's records with their own times, so a call is named by its time and
 * counts, and a copy counts once. A spawned subagent's rollout opens with a burst of its parent's records, stamped
 * within one second: those set where its running total starts and are no calls of its own.
 */
import { type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine, UsageRecord } from "../types.ts";
import { count, usageRecord } from "../usage.ts";
import type { CodexState, CodexUsageState } from "./state.ts";

type Counts = { input: number; cached: number; output: number; reasoning: number; total: number };

function countsOf(o: Obj | undefined): Counts | null {
  if (!o) return null;
  const input = count(o["input_tokens"]);
  const output = count(o["output_tokens"]);
  return {
    input,
    cached: Math.min(count(o["cached_input_tokens"]), input),
    output,
    reasoning: count(o["reasoning_output_tokens"]),
    total: typeof o["total_tokens"] === "number" ? count(o["total_tokens"]) : input + output,
  };
}

/**
 * What the rollout's meta says about its calls: when it started (a fork's copies of its parent's calls are older),
 * and whether another thread spawned it (`source.subagent.thread_spawn`).
 */
export function usageStart(s: CodexState, meta: Obj, ts: string | null): void {
  const sub = obj(obj(meta["source"])?.["subagent"]);
  const started = Date.parse(str(meta["timestamp"]) ?? ts ?? "");
  s.usage = {
    total: s.usage?.total ?? null,
    ...(sub && "thread_spawn" in sub ? { opening: "spawned" as const } : {}),
    ...(Number.isNaN(started) ? {} : { startedMs: started }),
  };
}

export function readTokenCount(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const info = obj(p["info"]);
  if (!s.usage) s.usage = { total: null };
  const u = s.usage;
  const running = countsOf(obj(info?.["total_token_usage"]));
  const previous = u.total;
  if (running) {
    if (running.total === previous) return;
    u.total = running.total;
  }
  const own = countsOf(obj(info?.["last_token_usage"]));
  const delta = own ?? (running && previous !== null ? { ...running, total: running.total - previous } : running);
  if (!delta || delta.input + delta.cached + delta.output + delta.reasoning === 0) return;
  const model = str(p["model"]) ?? str(p["model_name"]) ?? str(info?.["model"]) ?? s.seen.model;
  const rec = usageRecord(
    { line: line.line, ts, key: `L${line.line}#u` },
    {
      call: `${ts ?? ""}|${model ?? ""}|${delta.input}|${delta.cached}|${delta.output}|${delta.reasoning}|${delta.total}`,
      model: model ?? null,
      input: delta.input - delta.cached,
      cacheRead: delta.cached,
      output: delta.output,
      reasoning: delta.reasoning,
      // A call older than the rollout is a copy of its parent's (a fork): the parent's own copy counts.
      sidechain: u.startedMs !== undefined && Date.parse(ts ?? "") < u.startedMs,
    },
  );
  if (rec) opening(u, rec, ts, out);
}

/** Hands the call on, unless a spawned subagent's opening burst is still being told apart. */
function opening(u: CodexUsageState, rec: UsageRecord, ts: string | null, out: RawRecord[]): void {
  const second = (ts ?? "").slice(0, 19);
  const o = u.opening;
  if (o === undefined || o === "done") {
    out.push(rec);
    return;
  }
  if (o === "spawned") {
    u.opening = { second, held: rec, skipping: false };
    return;
  }
  if (second === o.second) {
    // Two records in the opening second: the burst replays the parent's; none of it is this rollout's.
    u.opening = { ...o, held: null, skipping: true };
    return;
  }
  if (o.held) out.push(o.held);
  u.opening = "done";
  out.push(rec);
}

/** A line of a later second ends a subagent's opening: a record still held was a call of its own. */
export function openingPassed(s: CodexState, ts: string | null, out: RawRecord[]): void {
  const o = s.usage?.opening;
  if (typeof o !== "object" || ts === null || ts.slice(0, 19) <= o.second) return;
  if (o.held) out.push(o.held);
  s.usage!.opening = "done";
}
