/**
 * The session a rollout is: `session_meta` (id, kind, parent, folder, git) and `turn_context` (the model and folder
 * each turn ran with, stated again every turn: only a change is a record).
 */
import { isObj, type Obj, obj, str } from "../json.ts";
import type { RawRecord, SourceLine } from "../types.ts";
import type { SessionKind } from "../vocabulary.ts";
import type { CodexState } from "./state.ts";
import { usageStart } from "./usage.ts";

export function readMeta(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const id = str(p["id"]) ?? str(p["session_id"]);
  if (!id) return;
  if (s.sessionId !== null) {
    // Forked and sub-agent rollouts repeat the parent's meta after their own.
    if (id !== s.sessionId) {
      out.push({
        kind: "session",
        line: line.line,
        ts,
        key: "session",
        sessionId: s.sessionId,
        meta: { replayed_parent: id },
      });
    }
    return;
  }
  s.sessionId = id;
  const source = p["source"];
  usageStart(s, p, ts);
  const git = obj(p["git"]);
  const cwd = str(p["cwd"]) ?? null;
  s.seen.cwd = cwd;
  out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: sessionKind(p),
    cwd,
    gitBranch: str(git?.["branch"]) ?? null,
    parentSessionId: str(p["parent_thread_id"]) ?? str(p["forked_from_id"]) ?? null,
    startedAt: str(p["timestamp"]) ?? ts,
    meta: {
      originator: p["originator"] ?? null,
      cli_version: p["cli_version"] ?? null,
      source: typeof source === "string" ? source : source === undefined ? null : source,
      model_provider: p["model_provider"] ?? null,
      git_commit: git?.["commit_hash"] ?? null,
      repository_url: git?.["repository_url"] ?? null,
      ...(str(p["agent_nickname"]) ? { agent_nickname: p["agent_nickname"] } : {}),
      ...(str(p["agent_role"]) ? { agent_role: p["agent_role"] } : {}),
    },
  });
}

/** A sub-agent says so in `source` (or `thread_source`), a `codex exec` run in `source` or its `originator`. */
function sessionKind(p: Obj): SessionKind {
  const source = p["source"];
  if ((isObj(source) && "subagent" in source) || str(p["thread_source"]) === "subagent") return "subagent";
  if (source === "exec" || str(p["originator"]) === "codex_exec") return "exec";
  return str(p["forked_from_id"]) ? "fork" : "main";
}

export function readTurnContext(s: CodexState, p: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  if (s.sessionId === null) return;
  const model = str(p["model"]) ?? null;
  const cwd = str(p["cwd"]) ?? null;
  const changed: Record<string, string> = {};
  if (model && model !== s.seen.model) changed["model"] = s.seen.model = model;
  if (cwd && cwd !== s.seen.cwd) changed["cwd"] = s.seen.cwd = cwd;
  if (Object.keys(changed).length > 0)
    out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, ...changed });
}
