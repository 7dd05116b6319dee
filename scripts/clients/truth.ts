/**
 * The truth of a client fixture, counted straight from the files the CLI wrote, with nothing from cairn's readers:
 * the prompts the harness typed, the tool calls the model made (by tool name, subagents' included), the tool
 * results that failed, the subagents that ran and the compactions. Each agent's rule names the one record that
 * carries each fact, so duplicates (Claude's queue records, Codex's event copies, Gemini's history rewrites) count
 * once.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import Database from "better-sqlite3";
import { deepagentsTruth } from "./deepagents-truth.ts";

export interface Truth {
  prompts: string[];
  toolCalls: Record<string, number>;
  failedResults: number;
  subagents: number;
  compactions: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the counters read raw JSON loosely on purpose, apart from cairn's typed readers
type Rec = Record<string, any>;

/** Every file under `root`, in name order. */
export function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(root);
  return out;
}

/** A JSON Lines file's records. */
export function jsonl(path: string): Rec[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Rec);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: Rec) => (typeof b?.["text"] === "string" ? b["text"] : "")).join("");
}

/** The harness's prompts all start with a task marker; subagent tasks (TASK-SUB) are the model's words. */
const TYPED = /^TASK-[A-Z]+:/;
const isTyped = (text: string) => TYPED.test(text.trim()) && !text.trim().startsWith("TASK-SUB:");

class Tally {
  prompts: string[] = [];
  toolCalls: Record<string, number> = {};
  failedResults = 0;
  subagents = 0;
  compactions = 0;
  private calls = new Set<string>();
  /** Counts a call once by its id; false when it was already counted (a re-stated record). */
  call(id: string, name: string): boolean {
    if (this.calls.has(id)) return false;
    this.calls.add(id);
    this.toolCalls[name] = (this.toolCalls[name] ?? 0) + 1;
    return true;
  }
  result(): Truth {
    const toolCalls = Object.fromEntries(Object.entries(this.toolCalls).sort(([a], [b]) => a.localeCompare(b)));
    return {
      prompts: this.prompts,
      toolCalls,
      failedResults: this.failedResults,
      subagents: this.subagents,
      compactions: this.compactions,
    };
  }
}

function claude(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    const sub = /\/subagents\/agent-[^/]+\.jsonl$/.test(f);
    if (sub) t.subagents++;
    for (const r of jsonl(f)) {
      if (r["type"] === "assistant")
        for (const b of r["message"]?.["content"] ?? []) if (b["type"] === "tool_use") t.call(b["id"], b["name"]);
      if (r["type"] === "user") {
        const c = r["message"]?.["content"];
        if (Array.isArray(c))
          for (const b of c) if (b["type"] === "tool_result" && b["is_error"] === true) t.failedResults++;
        const text = textOf(c);
        if (!sub && isTyped(text)) t.prompts.push(text);
      }
      if (r["type"] === "system" && r["subtype"] === "compact_boundary") t.compactions++;
    }
  }
}

function codex(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    const lines = jsonl(f);
    const meta = lines.find((r) => r["type"] === "session_meta")?.["payload"] ?? {};
    const sub = typeof meta["source"] === "object" && meta["source"] !== null && "subagent" in meta["source"];
    if (sub) t.subagents++;
    for (const r of lines) {
      const p = r["payload"] ?? {};
      if (r["type"] === "compacted") t.compactions++;
      if (r["type"] !== "response_item") continue;
      if (p["type"] === "message" && p["role"] === "user" && !sub && isTyped(textOf(p["content"])))
        t.prompts.push(textOf(p["content"]));
      if (["function_call", "custom_tool_call", "local_shell_call"].includes(p["type"]))
        t.call(p["call_id"], p["name"] ?? "local_shell");
      if (/_call_output$/.test(p["type"] ?? "")) {
        const out = typeof p["output"] === "string" ? p["output"] : JSON.stringify(p["output"]);
        const code = /(?:Process exited with code|^Exit code:) (-?\d+)/m.exec(out)?.[1];
        if ((code !== undefined && code !== "0") || /verification failed|^error:/im.test(out.slice(0, 200)))
          t.failedResults++;
      }
    }
  }
}

/** Gemini CLI's compression answer after the summary it puts in the user's slot. */
const GEMINI_ACK = "Got it. Thanks for the additional context!";

function gemini(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => /\/chats\/.*\.jsonl?$/.test(p))) {
    // Before JSONL, a chat was one JSON document holding its messages.
    const lines = f.endsWith(".json") ? ((JSON.parse(readFileSync(f, "utf8")) as Rec)["messages"] as Rec[]) : jsonl(f);
    const sub = lines.some((r) => r["kind"] === "subagent");
    if (sub) t.subagents++;
    const summaries = new Set<string>();
    for (const r of lines) {
      if (typeof r["id"] === "string" && r["type"] === "user" && !sub && isTyped(textOf(r["content"])))
        t.prompts.push(textOf(r["content"]));
      if (typeof r["id"] === "string" && r["type"] === "gemini")
        for (const c of r["toolCalls"] ?? []) {
          if (!t.call(c["id"], c["name"])) continue;
          const out = JSON.stringify(c["result"] ?? "");
          if (c["status"] === "error" || /Exit Code: [1-9]/.test(out)) t.failedResults++;
        }
      const set = r["$set"]?.["messages"];
      if (Array.isArray(set))
        set.forEach((m: Rec, i: number) => {
          const next = set[i + 1];
          if (m["type"] === "user" && next && textOf(next["content"]) === GEMINI_ACK) summaries.add(m["id"]);
        });
    }
    t.compactions += summaries.size;
  }
}

function pi(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    for (const r of jsonl(f)) {
      if (r["type"] === "compaction") t.compactions++;
      const m = r["type"] === "message" ? r["message"] : null;
      if (!m) continue;
      if (m["role"] === "user" && isTyped(textOf(m["content"]))) t.prompts.push(textOf(m["content"]));
      if (m["role"] === "assistant")
        // A fork re-states its parent's history under the same ids, in a session of its own.
        for (const b of m["content"] ?? []) if (b["type"] === "toolCall") t.call(`${f}#${b["id"]}`, b["name"]);
      if (m["role"] === "toolResult" && m["isError"] === true) t.failedResults++;
    }
  }
}

/** Oh My Pi writes pi's entries; a subagent's session is a file in the folder named after its parent's file. */
function omp(home: string, t: Tally): void {
  pi(home, t);
  const sessions = join(home, ".omp", "agent", "sessions");
  for (const f of files(sessions).filter((p) => p.endsWith(".jsonl")))
    if (f.slice(sessions.length + 1).split("/").length > 2) t.subagents++;
}

/**
 * Command Code: pi's envelope around Anthropic blocks; a prompt is a user message its `meta.source` says the user
 * wrote; a failed command's output starts `Exit code: N` (tool results carry no error flag).
 */
function commandcode(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl") && !p.endsWith(".checkpoints.jsonl"))) {
    for (const r of jsonl(f)) {
      const m = r["type"] === "message" ? r["message"] : null;
      if (!m) continue;
      for (const b of m["content"] ?? []) {
        if (m["role"] === "user" && m["meta"]?.["source"] === "user" && b["type"] === "text" && isTyped(b["text"]))
          t.prompts.push(b["text"]);
        if (b["type"] === "tool_use") t.call(b["id"], b["name"]);
        const exit = b["type"] === "tool_result" ? /^Exit code: (-?\d+)\n/.exec(textOf(b["content"])) : null;
        if (exit && exit[1] !== "0") t.failedResults++;
      }
    }
  }
}

/** The prompt among a user message's parts (Qwen puts a `<system-reminder>` part before it on resume). */
function typedPart(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  return parts.map((p: Rec) => (typeof p?.["text"] === "string" ? p["text"].trim() : "")).find(isTyped);
}

function qwen(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    const sub = /\/subagents\//.test(f);
    if (sub) t.subagents++;
    for (const r of jsonl(f)) {
      const parts = r["message"]?.["parts"];
      if (r["type"] === "user" && r["subtype"] === undefined && !sub) {
        const typed = typedPart(parts);
        if (typed) t.prompts.push(typed);
      }
      if (r["type"] === "assistant")
        for (const p of parts ?? []) if (p["functionCall"]) t.call(p["functionCall"]["id"], p["functionCall"]["name"]);
      if (r["type"] === "tool_result" && r["toolCallResult"]?.["status"] === "error") t.failedResults++;
      if (r["type"] === "system" && r["subtype"] === "chat_compression") t.compactions++;
    }
  }
}

function copilot(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/events.jsonl"))) {
    for (const r of jsonl(f)) {
      const d = r["data"] ?? {};
      const inAgent = typeof r["agentId"] === "string" || String(d["source"] ?? "").startsWith("agent-");
      if (r["type"] === "user.message" && !inAgent && isTyped(String(d["content"] ?? ""))) t.prompts.push(d["content"]);
      if (r["type"] === "assistant.message")
        for (const q of d["toolRequests"] ?? []) t.call(q["toolCallId"], q["name"]);
      if (r["type"] === "tool.execution_complete") {
        const code = d["shellExecution"]?.["exitCode"];
        if (d["success"] === false || (typeof code === "number" && code !== 0)) t.failedResults++;
      }
      if (r["type"] === "subagent.started") t.subagents++;
      if (r["type"] === "session.compaction_complete") t.compactions++;
    }
  }
}

/**
 * OpenCode and Kilo Code keep everything in SQLite: prompts are the text parts of user messages in sessions
 * without a parent (stored in literal double quotes when given on `run`'s command line), tool calls are tool
 * parts, a failure is a tool part in status error or a shell exit other than 0, subagents are sessions with a
 * parent, and a compaction is a `compaction` part (the request whose summary message follows).
 */
function opencodeDb(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      const sessions = db.prepare("SELECT id, parent_id FROM session").all() as Rec[];
      const main = new Set(sessions.filter((s) => !s["parent_id"]).map((s) => s["id"]));
      t.subagents += sessions.length - main.size;
      const roles = new Map(
        (db.prepare("SELECT id, data FROM message").all() as Rec[]).map((m) => [
          m["id"],
          JSON.parse(m["data"])["role"],
        ]),
      );
      for (const p of db
        .prepare("SELECT session_id, message_id, data FROM part ORDER BY message_id, id")
        .all() as Rec[]) {
        const d = JSON.parse(p["data"]) as Rec;
        const text = typeof d["text"] === "string" ? d["text"] : "";
        const unquoted = text.replace(/^"([\s\S]*)"$/, "$1");
        if (d["type"] === "text" && roles.get(p["message_id"]) === "user" && main.has(p["session_id"]))
          if (d["synthetic"] !== true && isTyped(unquoted)) t.prompts.push(text);
        if (d["type"] === "tool") {
          t.call(d["callID"], d["tool"]);
          const exit = d["state"]?.["metadata"]?.["exit"];
          if (d["state"]?.["status"] === "error" || (typeof exit === "number" && exit !== 0)) t.failedResults++;
        }
        if (d["type"] === "compaction") t.compactions++;
      }
    } finally {
      db.close();
    }
  }
}

/** Cline wraps what the user typed in `<user_input mode="act">` (or plan) before it is stored. */
const unwrapCline = (text: string) => text.replace(/^\s*<user_input[^>]*>([\s\S]*)<\/user_input>\s*$/, "$1");

/**
 * Cline: one `<id>.messages.json` document per session (Anthropic-style blocks) and one
 * `agent_<id>.messages.json` per subagent beside it (`agent: "subagent"`). A tool result has no error flag: a
 * failure is `success: false` in its payload (a list of per-command results, or one JSON object as a string).
 */
function cline(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".messages.json"))) {
    const doc = JSON.parse(readFileSync(f, "utf8")) as Rec;
    const sub = doc["agent"] === "subagent";
    if (sub) t.subagents++;
    for (const m of doc["messages"] ?? []) {
      const blocks: Rec[] = Array.isArray(m["content"]) ? m["content"] : [{ type: "text", text: m["content"] }];
      for (const b of blocks) {
        if (m["role"] === "user" && b["type"] === "text" && !sub) {
          const text = unwrapCline(String(b["text"] ?? ""));
          if (isTyped(text)) t.prompts.push(text);
        }
        if (b["type"] === "tool_use") t.call(b["id"], b["name"]);
        if (b["type"] === "tool_result") {
          let c = b["content"];
          if (typeof c === "string") {
            try {
              c = JSON.parse(c);
            } catch {
              // plain text: no verdict in it
            }
          }
          const items: Rec[] = Array.isArray(c) ? c : [c];
          if (items.some((i) => i && typeof i === "object" && i["success"] === false)) t.failedResults++;
        }
      }
    }
  }
}

/**
 * Factory Droid: `<session>.jsonl` per session; prompts are user text blocks (the `<system-reminder>` blocks
 * before them are separate blocks), tool results carry `is_error`, and a compaction is a `compaction_state`
 * record (in the child session it starts, whose `session_start` names the parent).
 */
function droid(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    for (const r of jsonl(f)) {
      if (r["type"] === "compaction_state") t.compactions++;
      const m = r["type"] === "message" ? r["message"] : null;
      if (!m || !Array.isArray(m["content"])) continue;
      for (const b of m["content"] as Rec[]) {
        if (m["role"] === "user" && b["type"] === "text" && isTyped(String(b["text"] ?? ""))) t.prompts.push(b["text"]);
        if (b["type"] === "tool_use") t.call(b["id"], b["name"]);
        if (b["type"] === "tool_result" && b["is_error"] === true) t.failedResults++;
      }
    }
  }
}

/**
 * Auggie: one `<session>.json` document per session, `chatHistory[]` of exchanges whose `request_nodes` hold what
 * was typed (text `0`), tool results (`1`, with `is_error`) and a history summary (`10`: a compaction), and whose
 * `response_nodes` hold tool calls (`5`). A summary's `history_end` re-states exchanges already counted. Each
 * sub-agent's run is kept in its parent's document, under `subAgents[]` (its first text is the lead's words).
 */
function auggie(home: string, t: Tally): void {
  const exchanges = (history: Rec[], sub: boolean) => {
    for (const entry of history) {
      const x = entry["exchange"] ?? {};
      for (const n of x["request_nodes"] ?? []) {
        const text = n["text_node"]?.["content"];
        if (n["type"] === 0 && typeof text === "string" && !sub && isTyped(text)) t.prompts.push(text);
        if (n["type"] === 1 && n["tool_result_node"]?.["is_error"] === true) t.failedResults++;
        if (n["type"] === 10 && n["history_summary_node"]) t.compactions++;
      }
      for (const n of x["response_nodes"] ?? [])
        if (n["type"] === 5 && n["tool_use"]) t.call(n["tool_use"]["tool_use_id"], n["tool_use"]["tool_name"]);
    }
  };
  for (const f of files(home).filter((p) => p.endsWith(".json"))) {
    const doc = JSON.parse(readFileSync(f, "utf8")) as Rec;
    exchanges(doc["chatHistory"] ?? [], false);
    for (const agent of doc["subAgents"] ?? []) {
      t.subagents++;
      exchanges(agent["chatHistory"] ?? [], true);
    }
  }
}

/**
 * Kimi CLI: a `wire.jsonl` event log per session and per subagent (`subagents/<id>/wire.jsonl`), each line a
 * `{timestamp, message: {type, payload}}`: prompts are `TurnBegin` inputs in sessions, calls `ToolCall`, failures
 * `ToolResult`s whose `return_value.is_error` is true, compactions `CompactionBegin`. The parent's `SubagentEvent`s
 * repeat the subagent's own log, and the `context*.jsonl` files beside the logs repeat the conversation.
 */
function kimi(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/wire.jsonl"))) {
    const sub = /\/subagents\/[^/]+\/wire\.jsonl$/.test(f);
    if (sub) t.subagents++;
    for (const r of jsonl(f)) {
      const type = r["message"]?.["type"];
      const p = r["message"]?.["payload"] ?? {};
      if (type === "TurnBegin" && !sub && isTyped(textOf(p["user_input"]))) t.prompts.push(textOf(p["user_input"]));
      if (type === "ToolCall") t.call(p["id"], p["function"]?.["name"]);
      if (type === "ToolResult" && p["return_value"]?.["is_error"] === true) t.failedResults++;
      if (type === "CompactionBegin") t.compactions++;
    }
  }
}

/**
 * Crush: one SQLite database per project (`.crush/crush.db`). Prompts are the text parts of user messages in
 * sessions without a parent; tool calls are `tool_call` parts; a failure is a `tool_result` part with `is_error`, or
 * a shell result whose output ends in `Exit code N` (N not 0); subagents are sessions with a parent; a compaction
 * is a message marked `is_summary_message`.
 */
function crushDb(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/crush.db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      const sessions = db.prepare("SELECT id, parent_session_id FROM sessions").all() as Rec[];
      const main = new Set(sessions.filter((s) => !s["parent_session_id"]).map((s) => s["id"]));
      t.subagents += sessions.length - main.size;
      const messages = db
        .prepare("SELECT session_id, role, parts, is_summary_message FROM messages ORDER BY rowid")
        .all() as Rec[];
      for (const m of messages) {
        if (m["is_summary_message"] === 1) t.compactions++;
        for (const { type, data } of JSON.parse(m["parts"]) as Rec[]) {
          if (type === "text" && m["role"] === "user" && main.has(m["session_id"]) && isTyped(data["text"]))
            t.prompts.push(data["text"]);
          if (type === "tool_call") t.call(data["id"], data["name"]);
          if (type === "tool_result") {
            const exit =
              data["name"] === "bash" ? /\nExit code (-?\d+)\n/.exec(`\n${data["content"]}\n`)?.[1] : undefined;
            if (data["is_error"] === true || (exit !== undefined && exit !== "0")) t.failedResults++;
          }
        }
      }
    } finally {
      db.close();
    }
  }
}

/**
 * OpenClaw writes pi's entries: rows of `transcript_events` in its agent database (2026.8 on; a larger one
 * compressed with zstd from 2026.9.3), or JSONL files beside a `sessions.json` index (before). A subagent is a
 * session whose window names a parent session key (`session_windows`), or whose index entry says `spawnedBy`; a
 * failure is `isError` or a shell exit code in the result's `details`.
 */
function openclaw(home: string, t: Tally): void {
  const entries = (session: string, sub: boolean, events: Rec[]) => {
    if (sub) t.subagents++;
    for (const r of events) {
      if (r["type"] === "compaction") t.compactions++;
      const m = r["type"] === "message" ? r["message"] : null;
      if (!m) continue;
      if (m["role"] === "user" && !sub && isTyped(textOf(m["content"]))) t.prompts.push(textOf(m["content"]));
      if (m["role"] === "assistant")
        for (const b of m["content"] ?? []) if (b["type"] === "toolCall") t.call(`${session}#${b["id"]}`, b["name"]);
      const exit = m["details"]?.["exitCode"];
      if (m["role"] === "toolResult" && (m["isError"] === true || (typeof exit === "number" && exit !== 0)))
        t.failedResults++;
    }
  };
  for (const f of files(home).filter((p) => p.endsWith("/openclaw-agent.sqlite"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      for (const w of db.prepare("SELECT session_id, parent_session_key FROM session_windows").all() as Rec[]) {
        const rows = db
          .prepare("SELECT * FROM transcript_events WHERE session_id = ? ORDER BY seq")
          .all(w["session_id"]) as Rec[];
        // From 2026.9.3 a larger entry is kept compressed (zstd) instead.
        const json = (r: Rec): string => r["event_json"] ?? zstdDecompressSync(r["event_zstd"]).toString("utf8");
        entries(
          w["session_id"],
          w["parent_session_key"] !== null,
          rows.map((r) => JSON.parse(json(r))),
        );
      }
    } finally {
      db.close();
    }
  }
  for (const f of files(home).filter((p) => /\/sessions\/[^/]+\.jsonl$/.test(p) && !p.endsWith(".trajectory.jsonl"))) {
    const index = join(f, "..", "sessions.json");
    const sessions = statSync(index, { throwIfNoEntry: false })
      ? Object.values(JSON.parse(readFileSync(index, "utf8")) as Record<string, Rec>)
      : [];
    const id = f.slice(f.lastIndexOf("/") + 1, -".jsonl".length);
    const sub = sessions.some((s) => s["sessionId"] === id && typeof s["spawnedBy"] === "string");
    entries(id, sub, jsonl(f));
  }
}

/**
 * Nanocoder: one `<uuid>.json` document per session (chat-completions messages); a failure is `isError`, text
 * starting `Error: ` or `⚒ Validation failed` (Nanocoder's own rule), or a shell `EXIT_CODE` other than 0; a
 * compaction is the user message holding a `<conversation-summary>`. Subagents leave no file of their own.
 */
function nanocoder(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => /\/sessions\/[0-9a-f-]{36}\.json$/.test(p))) {
    for (const m of (JSON.parse(readFileSync(f, "utf8")) as Rec)["messages"] as Rec[]) {
      const text = typeof m["content"] === "string" ? m["content"] : "";
      if (m["role"] === "user" && text.startsWith("<conversation-summary>")) t.compactions++;
      else if (m["role"] === "user" && isTyped(text)) t.prompts.push(text);
      for (const c of m["tool_calls"] ?? []) t.call(c["id"], c["function"]["name"]);
      const exit = /^EXIT_CODE: (-?\d+)\n/.exec(text)?.[1];
      if (
        m["role"] === "tool" &&
        (m["isError"] === true || /^(Error: |⚒ Validation failed)/.test(text) || (exit ?? "0") !== "0")
      )
        t.failedResults++;
    }
  }
}

/** A JSON document of a Mistral Vibe session store, by its path relative to the session's folder. */
function vibeDoc(dir: string, rel: string): Rec {
  return JSON.parse(readFileSync(join(dir, rel), "utf8")) as Rec;
}

/**
 * Mistral Vibe 3: one store per session under `logs/session/unified/<id>/`. `CURRENT` names the generation whose
 * manifest lists, in order, the chunks of the session's projection (what its screen shows: messages, tool effects,
 * checkpoints); older chunks and generations linger beside them until swept, so only the manifest's count. Prompts
 * are user messages that started a turn, a tool call is an effect (by its `toolName`), a failure is an effect that
 * failed or a command that exited other than 0, a subagent is a session whose projection names a parent, and a
 * compaction is a `compaction` checkpoint.
 */
function vibe(home: string, t: Tally): void {
  vibeMessages(home, t);
  for (const current of files(home).filter((p) => /\/unified\/[^/]+\/CURRENT$/.test(p))) {
    const dir = join(current, "..");
    const manifest = vibeDoc(dir, `generations/${vibeDoc(dir, "CURRENT")["generation"]}/manifest.json`);
    const state = vibeDoc(dir, `generations/${manifest["generation"]}/projection-state.json`);
    const sub = typeof state["snapshot"]?.["session"]?.["parentSessionId"] === "string";
    if (sub) t.subagents++;
    const entries: Rec[] = (manifest["projection_state"]["chunks"] as string[]).flatMap(
      (c) => vibeDoc(dir, `chunks/${c}.json`) as unknown as Rec[],
    );
    for (const e of entries) {
      if (e["type"] === "message" && e["role"] === "user" && e["source"] === "turn_start" && !sub) {
        const text = textOf(e["content"]);
        if (isTyped(text)) t.prompts.push(text);
      }
      if (e["type"] === "effect") {
        t.call(e["id"], e["detail"]["toolName"]);
        const code = e["state"]?.["output"]?.["structured_content"]?.["returncode"];
        if (e["state"]?.["status"] === "failed" || (typeof code === "number" && code !== 0)) t.failedResults++;
      }
      if (e["type"] === "checkpoint" && e["kind"] === "compaction") t.compactions++;
    }
  }
}

/**
 * mini-swe-agent: one trajectory document per run (`*.traj.json`). The harness's prompts are the user messages
 * carrying a task marker (the first inside the agent's task template, later ones after "The user added a new
 * task: "), tool calls are the assistant messages' `tool_calls`, and a failure is a result whose `returncode` is not
 * 0, unless mini says it did not run the command (the one that submitted the task).
 */
function mini(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".traj.json"))) {
    for (const m of (JSON.parse(readFileSync(f, "utf8")) as Rec)["messages"] as Rec[]) {
      const task = m["role"] === "user" ? /TASK-[A-Z]+:[^\n]*/.exec(textOf(m["content"]))?.[0] : undefined;
      if (task && isTyped(task)) t.prompts.push(task);
      for (const c of m["role"] === "assistant" ? (m["tool_calls"] ?? []) : []) t.call(c["id"], c["function"]["name"]);
      const x = m["extra"] ?? {};
      if (
        typeof x["returncode"] === "number" &&
        x["returncode"] !== 0 &&
        x["exception_info"] !== "action was not executed"
      )
        t.failedResults++;
    }
  }
}

/**
 * Mistral Vibe 2: `session_<time>_<id>/messages.jsonl` per session (a subagent's under `agents/` in its parent's folder, its
 * `meta.json` naming the parent). Prompts are user messages not injected, calls the assistants' `tool_calls`, a
 * failure a `<tool_error>` result or a command's `returncode` other than 0, a compaction the injected message that
 * marks a `context_boundary`.
 */
function vibeMessages(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => /\/session_[^/]+\/(agents\/[^/]+\/)?messages\.jsonl$/.test(p))) {
    const sub = typeof vibeDoc(join(f, ".."), "meta.json")["parent_session_id"] === "string";
    if (sub) t.subagents++;
    for (const m of jsonl(f)) {
      if (m["role"] === "user" && m["context_boundary"] === "compaction") t.compactions++;
      if (m["role"] === "user" && m["injected"] === false && !sub && isTyped(textOf(m["content"])))
        t.prompts.push(textOf(m["content"]));
      for (const c of m["role"] === "assistant" ? (m["tool_calls"] ?? []) : []) t.call(c["id"], c["function"]["name"]);
      const code = m["tool_result"]?.["output"]?.["returncode"];
      if (
        m["role"] === "tool" &&
        (/^<tool_error>/.test(textOf(m["content"])) || (typeof code === "number" && code !== 0))
      )
        t.failedResults++;
    }
  }
}

/**
 * Continue CLI: one `<id>.json` document per session (the `sessions.json` beside them is an index). Prompts are user
 * messages; tool calls are an assistant message's `toolCalls`, and their results the item's `toolCallStates`, failed
 * when `errored` or `canceled`; a compaction is the history item carrying a `conversationSummary`. A subagent runs in
 * memory and leaves no file.
 */
function cont(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith(".json") && !p.endsWith("/sessions.json"))) {
    const doc = JSON.parse(readFileSync(f, "utf8")) as Rec;
    for (const item of (doc["history"] ?? []) as Rec[]) {
      const m = item["message"] ?? {};
      if (m["role"] === "user" && isTyped(textOf(m["content"]))) t.prompts.push(textOf(m["content"]));
      // A fork's file starts as a copy of its parent's history, under the same call ids.
      for (const c of m["toolCalls"] ?? []) t.call(`${f}#${c["id"]}`, c["function"]?.["name"]);
      for (const s of item["toolCallStates"] ?? [])
        if (["errored", "canceled"].includes(s["status"])) t.failedResults++;
      if (typeof item["conversationSummary"] === "string") t.compactions++;
    }
  }
}

/**
 * Hermes Agent: one SQLite database per profile (`state.db`). A compaction in place archives the session's rows and
 * inserts copies of the turns it keeps, so every fact is counted once by its identity: a prompt by its text per
 * session (the harness's prompts differ), a call and its result by the call id, a compaction by its summary's text.
 * Prompts are user messages of sessions that are no subagent's (a subagent's session names the one it was delegated
 * from as `_delegate_from`); a failure is a result whose JSON says `success: false`, an `error`, or an `exit_code`
 * other than 0.
 */
function hermes(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/state.db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      const sessions = db.prepare("SELECT id, model_config FROM sessions").all() as Rec[];
      const subs = new Set(
        sessions.filter((s) => "_delegate_from" in JSON.parse(s["model_config"] ?? "{}")).map((s) => s["id"]),
      );
      t.subagents += subs.size;
      const seen = new Set<string>();
      const once = (key: string) => !seen.has(key) && seen.add(key) !== undefined;
      const rows = db.prepare("SELECT session_id, role, content, tool_calls, tool_call_id FROM messages ORDER BY id");
      for (const m of rows.all() as Rec[]) {
        const sid = m["session_id"];
        const text = typeof m["content"] === "string" ? m["content"] : "";
        if (text.includes("[CONTEXT COMPACTION — REFERENCE ONLY]")) {
          if (once(`${sid}#summary#${text}`)) t.compactions++;
        } else if (m["role"] === "user" && !subs.has(sid) && isTyped(text) && once(`${sid}#prompt#${text}`))
          t.prompts.push(text);
        for (const c of JSON.parse(m["tool_calls"] ?? "[]") as Rec[])
          t.call(`${sid}#${c["id"]}`, c["function"]["name"]);
        if (m["role"] !== "tool" || !once(`${sid}#result#${m["tool_call_id"]}`) || !text.startsWith("{")) continue;
        const r = JSON.parse(text) as Rec;
        if (r["success"] === false || r["error"] || (typeof r["exit_code"] === "number" && r["exit_code"] !== 0))
          t.failedResults++;
      }
    } finally {
      db.close();
    }
  }
}

/**
 * gptme: `<logs>/<name>/conversation.jsonl`, one message a line; a subagent's folder holds `subagent-meta.json`.
 * Prompts are user messages with a task marker (the text before the files gptme attached); tool calls the
 * `@<tool>(<id>): ` lines of assistant messages; a failure a result (a `system` message with a `call_id`) saying
 * `Error during execution`, a `Return code` other than 0, or a file the read tool could not read; a compaction the `system` message marked as its intro.
 */
function gptme(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/conversation.jsonl"))) {
    const sub = files(join(f, "..")).some((p) => p.endsWith("/subagent-meta.json"));
    if (sub) t.subagents++;
    const tools = new Map<string, string>();
    for (const m of jsonl(f)) {
      const text: string = m["content"];
      if (m["role"] === "user" && !sub && isTyped(text)) t.prompts.push(text.split("\n\n````")[0]!);
      if (m["role"] === "assistant")
        for (const c of text.matchAll(/^@([\w.-]+)\(([^()\s]+)\): /gm)) {
          t.call(c[2]!, c[1]!);
          tools.set(c[2]!, c[1]!);
        }
      const code = /^Return code: (-?\d+)$/m.exec(text)?.[1];
      const unread = tools.get(m["call_id"]) === "read" && /^(File not found|Not a file|Permission denied)/.test(text);
      if (
        m["role"] === "system" &&
        m["call_id"] &&
        (/^Error during execution/.test(text) || (code && code !== "0") || unread)
      )
        t.failedResults++;
      if (m["metadata"]?.["compaction_artifact"] === "intro") t.compactions++;
    }
  }
}

/**
 * OpenHands CLI: a conversation is a folder (`conversations/<id>/`) holding one JSON file per event in `events/`; a
 * subagent's conversation is a folder of the same shape under its parent's `subagents/`. Prompts are `MessageEvent`s
 * from the `user` source in conversations that are no subagent's; tool calls `ActionEvent`s by `tool_name`; a failure
 * an `ObservationEvent` whose observation says `is_error` or an `exit_code` other than 0 (-1: still running), an
 * `AgentErrorEvent` or a `UserRejectObservation`; a compaction a `Condensation`.
 */
function openhands(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => /\/events\/event-\d+-[^/]+\.json$/.test(p))) {
    const e = JSON.parse(readFileSync(f, "utf8")) as Rec;
    const sub = /\/subagents\/[^/]+\/events\//.test(f);
    if (e["kind"] === "MessageEvent" && e["source"] === "user" && !sub) {
      const text = textOf(e["llm_message"]?.["content"]);
      if (isTyped(text)) t.prompts.push(text);
    }
    if (e["kind"] === "ActionEvent")
      t.call(`${f.replace(/\/events\/[^/]+$/, "")}#${e["tool_call_id"]}`, e["tool_name"]);
    const o = e["observation"] as Rec | undefined;
    const code = o?.["exit_code"];
    const failedRun =
      e["kind"] === "ObservationEvent" &&
      (o?.["is_error"] === true || (typeof code === "number" && code !== 0 && code !== -1));
    if (failedRun || e["kind"] === "AgentErrorEvent" || e["kind"] === "UserRejectObservation") t.failedResults++;
    if (e["kind"] === "Condensation") t.compactions++;
  }
  t.subagents += files(home).filter((p) => /\/subagents\/[^/]+\/base_state\.json$/.test(p)).length;
}

/**
 * Open Interpreter: one JSON array of messages per conversation under `open-interpreter/conversations/`. Prompts are
 * the user's `message`s, calls the assistant's `code` messages (its one tool, `execute`), and a failure is an
 * output Open Interpreter wrote itself for code it could not run (a language it lacks, an empty block, its own
 * traceback); a command's exit status is not kept.
 */
function interpreter(home: string, t: Tally): void {
  const own = /^(`[^`]*` disabled or not supported\.|Code block was empty\.|Traceback \(most recent call last\):)/;
  for (const f of files(home).filter((p) => /\/open-interpreter\/conversations\/[^/]+\.json$/.test(p))) {
    (JSON.parse(readFileSync(f, "utf8")) as Rec[]).forEach((m, i) => {
      if (m["role"] === "user" && m["type"] === "message" && isTyped(m["content"])) t.prompts.push(m["content"]);
      if (m["role"] === "assistant" && m["type"] === "code") t.call(`${f}#${i}`, "execute");
      if (m["role"] === "computer" && m["type"] === "console" && own.test(m["content"])) t.failedResults++;
    });
  }
}

/**
 * Aider: `.aider.chat.history.md` in the project, markdown. Prompts are runs of `#### ` lines with a task marker;
 * tool calls the model's SEARCH/REPLACE blocks (a `<<<<<<< SEARCH` line not right after the
 * `## SearchReplaceNoExactMatch` heading aider's report of a failed block echoes it under), `write` when the
 * SEARCH part is empty; failures each `## SearchReplaceNoExactMatch` heading, and each `#### /test` whose output
 * aider added to the chat (it adds it only when the command failed).
 */
function aider(home: string, t: Tally): void {
  for (const f of files(home).filter((p) => p.endsWith("/.aider.chat.history.md"))) {
    const lines = readFileSync(f, "utf8").split("\n");
    let prompt: string[] = [];
    let test = false;
    lines.forEach((line, i) => {
      if (line.startsWith("#### ")) prompt.push(line.slice(5).trimEnd());
      else if (prompt.length > 0) {
        const typed = prompt.join("\n");
        if (isTyped(typed)) t.prompts.push(typed);
        test = typed.startsWith("/test ");
        prompt = [];
      }
      if (line.startsWith("# aider chat started at ")) test = false;
      if (test && /^> Added \d+ lines? of output to the chat\./.test(line)) t.failedResults++;
      if (line.startsWith("## SearchReplaceNoExactMatch:")) t.failedResults++;
      if (line === "<<<<<<< SEARCH" && !lines[i - 1]?.startsWith("## SearchReplaceNoExactMatch:"))
        t.call(`${f}:${i}`, lines[i + 1] === "=======" ? "write" : "edit");
    });
  }
}

/** Deep Agents Code: LangGraph checkpoints, unpacked by LangGraph itself (deepagents-truth.ts). */
function deepagents(home: string, t: Tally): void {
  deepagentsTruth(home, t, isTyped);
}

const COUNTERS: Record<string, (home: string, t: Tally) => void> = {
  claude,
  codex,
  gemini,
  pi,
  qwen,
  copilot,
  opencode: opencodeDb,
  kilo: opencodeDb,
  cline,
  droid,
  auggie,
  kimi,
  crush: crushDb,
  openclaw,
  nanocoder,
  vibe,
  mini,
  continue: cont,
  omp,
  commandcode,
  hermes,
  gptme,
  openhands,
  interpreter,
  aider,
  deepagents,
};

export function computeTruth(agent: string, home: string): Truth {
  const counter = COUNTERS[agent];
  if (!counter) throw new Error(`no truth counter for '${agent}'`);
  const t = new Tally();
  counter(home, t);
  return t.result();
}
