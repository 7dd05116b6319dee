/**
 * Subagents (sidechains). Claude Code writes each to a file of its own: `agent-<id>.jsonl` beside its parent's
 * (2.0.x, "flat") or under `<parent>/subagents/` (2.1.x, "nested"). cairn names such a session `<parent>:agent-<id>`.
 */
import { basename, dirname } from "node:path";
import { type Obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import type { ClaudeState } from "./state.ts";

const SUBAGENT_FILE = /^agent-([A-Za-z0-9_-]+)\.jsonl$/;

/** What the path says: whether the file is a subagent's, in which layout, and (nested) its parent's id. */
export function subagentOfPath(path: string): Pick<ClaudeState, "subagent" | "parentFromPath"> {
  const m = SUBAGENT_FILE.exec(basename(path));
  const nested = basename(dirname(path)) === "subagents";
  return {
    subagent: m ? { agentId: m[1] ?? null, layout: nested ? "nested" : "flat" } : null,
    parentFromPath: nested ? basename(dirname(dirname(path))) : null,
  };
}

/** Opens a subagent file's session once its parent is known (from the line, else the path); false until then. */
export function openSubagentSession(
  s: ClaudeState,
  o: Obj,
  line: SourceLine,
  ts: string | null,
  meta: Record<string, unknown>,
  out: RawRecord[],
): boolean {
  const parent = str(o["sessionId"]) ?? s.parentFromPath;
  if (parent === null || s.subagent === null) return false;
  const agentId = str(o["agentId"]) ?? s.subagent.agentId;
  s.sessionId = `${parent}:agent-${agentId}`;
  out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "subagent",
    parentSessionId: parent,
    startedAt: ts,
    meta: { ...meta, agent_id: agentId, layout: s.subagent.layout },
  });
  return true;
}

/** 2.0.x spawned "Warmup" sidechains that only ping the model; their first prompt says so, and they are hidden. */
export function noteWarmup(
  s: ClaudeState,
  prompt: { text: string; typed: boolean },
  line: SourceLine,
  ts: string | null,
  out: RawRecord[],
): void {
  if (!s.subagent || s.warmupOnly !== null || !prompt.typed) return;
  s.warmupOnly = prompt.text.trim() === "Warmup";
  if (s.warmupOnly && s.sessionId)
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, meta: { warmup: true } });
}

/** Whether a line is a sidechain's, and which agent wrote it, as the line says: kept on its records. */
export function lineMeta(o: Obj): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  if (o["isSidechain"] === true) meta["sidechain"] = true;
  const agentId = str(o["agentId"]);
  if (agentId) meta["agent_id"] = agentId;
  return Object.keys(meta).length > 0 ? meta : undefined;
}
