/**
 * Claude Code transcripts: `~/.claude/projects/<slug>/<sessionId>.jsonl`, flat `agent-<id>.jsonl` sidechain files
 * beside them (2.0.x), and `<sessionId>/subagents/agent-<id>.jsonl` (2.1.x). See research/transcript-formats §3.1.
 */
import { basename, dirname } from "node:path";
import { arr, contentText, isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { RawRecord, Reader, SessionRecord, SourceLine } from "../types.ts";

const EXIT_LINE = /^Exit code (\d+)\n/;

interface ClaudeMessage {
  id: string;
  key: string;
  text: string;
  thinking: string;
  /** Usage of the API call: every line of a message repeats it, so it is taken from the first line only. */
  usage: unknown;
}

export interface ClaudeState extends LineState {
  /** cairn's id for the session in this file (subagent files get `<parent>:agent-<id>`). */
  subagent: { agentId: string | null; layout: "flat" | "nested" } | null;
  fileStem: string;
  /** For `<parent>/subagents/agent-x.jsonl`: the parent session id taken from the path. */
  parentFromPath: string | null;
  /**
   * `summary` lines (a conversation's title, pointing at its leaf by `leafUuid`, often in another session's file),
   * oldest first, at most 50. They are session metadata: `summary` (the latest) and `summaries`.
   */
  summaries: Array<{ summary: string; leaf_uuid: string | null }>;
  /**
   * The API message being written over several lines: one assistant_message event, merged by `message.id`. It is
   * kept across interleaved user lines (a prompt typed while the reply streams), which do not end it.
   */
  msg: ClaudeMessage | null;
  /** Earlier API messages that may still continue after another one interleaved (newest last, at most 8). */
  recent: ClaudeMessage[];
  /** Line uuids that produced no record of their own → the record key that stands for them in the tree. */
  alias: Record<string, string>;
  /** The last `compact_boundary` (key and metadata), whose summary arrives on a later user line. */
  compact: { key: string; meta: Record<string, unknown> } | null;
  /** A `<bash-input>` user command waiting for its `<bash-stdout>`. */
  pendingBash: string | null;
  /** A slash command the user ran, waiting for its `<local-command-stdout>`. */
  pendingSlash: string | null;
  /**
   * Prompts queued (`queue-operation` enqueue) and the key of the record they became, so the same words arriving
   * later as a user line (2.1.x writes every prompt both ways) are that record, not a second prompt.
   */
  queued: Array<{ text: string; key: string }>;
  /** Last session metadata sent, so a session record is emitted only when something changes. */
  seen: {
    cwd: string | null;
    branch: string | null;
    model: string | null;
    version: string | null;
    title: string | null;
  };
  warmupOnly: boolean | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBAGENT_FILE = /^agent-([A-Za-z0-9_-]+)\.jsonl$/;

/** Markup that Claude Code wraps around harness text that arrives as a user message. */
const INJECTED_TAGS = [
  "system-reminder",
  "task-notification",
  "user-memory-input",
  "ide_opened_file",
  "ide_selection",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "command-stdout",
  "command-stderr",
];
const INJECTED_RE = new RegExp(`<(${INJECTED_TAGS.join("|")})>[\\s\\S]*?</\\1>`, "g");
const INTERRUPT_RE = /^\[Request interrupted by user( for tool use)?\]/;

/** Line types that are known and deliberately not events (their facts, if any, go into session metadata). */
const QUIET_TYPES = new Set([
  "file-history-snapshot",
  "progress",
  "permission-mode",
  "mode",
  "agent-name",
  "last-prompt",
  "pr-link",
  "frame-link",
  "worktree-state",
  "relocated",
  "bridge-session",
  "atis-latch",
  "started",
  "result",
  "attachment",
  // 2.1.x bookkeeping: the API requests it made (their system prompt and tools), tool use tallies, costs.
  "api-request",
  "api-request-shape",
  "api-request-blob",
  "tools-used",
  "cost-state",
]);

/**
 * A Claude Code record by its shape: a `type`, and the keys of the conversation tree (`parentUuid`, or a `uuid` in a
 * `sessionId`), or one of the bookkeeping records only Claude Code writes. One key alone is not enough: Qwen Code's
 * usage log has a `sessionId` and is no transcript.
 */
function isClaudeRecord(o: Obj): boolean {
  const type = o["type"];
  if (typeof type !== "string") return false;
  if (type === "summary") return typeof o["leafUuid"] === "string" || typeof o["summary"] === "string";
  if (type === "file-history-snapshot") return isObj(o["snapshot"]);
  if (type === "queue-operation") return typeof o["operation"] === "string" && typeof o["sessionId"] === "string";
  return "parentUuid" in o || (typeof o["uuid"] === "string" && typeof o["sessionId"] === "string");
}

export const claudeReader: Reader<ClaudeState> = {
  provider: "claude",
  version: 2,
  general: true,
  detect(path, firstLine) {
    if (/[\\/](\.claude|claude)[\\/]projects[\\/].*\.jsonl$/.test(path)) return true;
    const record = recordOf(firstLine);
    if (record) return isClaudeRecord(record);
    // A first line cut short at the detection limit: its type and a key of Claude's tree.
    return (
      /"type"\s*:\s*"(user|assistant|system|summary|file-history-snapshot|queue-operation)"/.test(firstLine) &&
      /"(parentUuid|leafUuid|uuid)"\s*:/.test(firstLine)
    );
  },
  initialState(path) {
    const name = basename(path);
    const m = SUBAGENT_FILE.exec(name);
    const nested = basename(dirname(path)) === "subagents";
    return {
      sessionId: null,
      subagent: m ? { agentId: m[1] ?? null, layout: nested ? "nested" : "flat" } : null,
      fileStem: name.replace(/\.jsonl$/, ""),
      parentFromPath: nested ? basename(dirname(dirname(path))) : null,
      summaries: [],
      msg: null,
      recent: [],
      alias: {},
      compact: null,
      pendingBash: null,
      pendingSlash: null,
      queued: [],
      seen: { cwd: null, branch: null, model: null, version: null, title: null },
      warmupOnly: null,
      unknown: {},
    };
  },
  parse(lines, state) {
    const s: ClaudeState = structuredClone(state);
    // States saved before these fields existed lack them.
    s.summaries ??= [];
    s.pendingSlash ??= null;
    return parseLines(lines, s, (st, o, line, sink) => readLine(st, o, line, sink.out, sink));
  },
};

function readLine(s: ClaudeState, o: Obj, line: SourceLine, out: RawRecord[], sink: LineSink): void {
  const type = str(o["type"]);
  const ts = str(o["timestamp"]) ?? null;
  if (type === "summary") {
    sessionUpdate(s, o, line, ts, out);
    const summary = str(o["summary"]);
    // Summaries can describe other sessions' leaves (leafUuid), so they are kept as metadata, not as the title;
    // all of them, since a resumed session starts with one per earlier conversation.
    if (summary) {
      s.summaries = [...s.summaries.slice(-49), { summary, leaf_uuid: str(o["leafUuid"]) ?? null }];
      if (s.sessionId !== null)
        out.push({
          kind: "session",
          line: line.line,
          ts,
          key: "session",
          sessionId: s.sessionId,
          meta: summaryMeta(s),
        });
    }
    return;
  }
  if (type === "custom-title" || type === "ai-title") {
    sessionUpdate(s, o, line, ts, out);
    const title = str(o["customTitle"]) ?? str(o["aiTitle"]) ?? str(o["title"]);
    if (title && s.sessionId !== null && (type === "custom-title" || s.seen.title === null)) {
      s.seen.title = title;
      out.push({ kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId, title });
    }
    return;
  }
  if (type === "queue-operation") return readQueued(s, o, line, ts, out);
  if (type === "user") return readUser(s, o, line, ts, out);
  if (type === "assistant") return readAssistant(s, o, line, ts, out);
  if (type === "system") return readSystem(s, o, line, ts, out);
  if (type !== undefined && QUIET_TYPES.has(type)) {
    sessionUpdate(s, o, line, ts, out);
    quietAlias(s, o);
    return;
  }
  // Unknown or missing type: reported once per type, its text kept in the session's meta.
  sessionUpdate(s, o, line, ts, out);
  unknownRecord(s, type ?? "", o, line, ts, sink);
  quietAlias(s, o);
}

/**
 * A prompt queued while the agent works (`enqueue`); 2.1.x queues every prompt, then writes it again as a user
 * line. The queued words are the prompt (mid-turn steering that is `remove`d never gets a user line); a slash
 * command is left to its `<command-name>` line, and harness text (a background agent's `<task-notification>`) is
 * the harness's.
 */
function readQueued(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const content = str(o["content"]);
  if (str(o["operation"]) !== "enqueue" || !content || content.trim() === "") return;
  if (/^\/[A-Za-z][\w:-]*(\s|$)/.test(content.trim())) return;
  const key = `q${line.line}`;
  s.queued = [...s.queued.filter((q) => typeof q === "object").slice(-15), { text: content, key }];
  const harness = content.replace(INJECTED_RE, "").trim() === "";
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key,
    role: harness ? "system" : "user",
    text: content,
    typed: !harness,
    meta: harness ? { queued: true, injected: /<([a-z_-]+)>/.exec(content)?.[1] ?? "markup" } : { queued: true },
  });
}

/** Emits the session record when identity or metadata first appears or changes. */
function sessionUpdate(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  const lineSession = str(o["sessionId"]);
  if (s.sessionId === null) {
    // The file name is the session id for main files; fixtures and copies may be renamed, so the lines win.
    const fallback = UUID_RE.test(s.fileStem) ? s.fileStem : null;
    const meta = summaryMeta(s);
    if (s.subagent) {
      const parent = lineSession ?? s.parentFromPath;
      if (parent === null) return;
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
    } else {
      const id = lineSession ?? fallback;
      if (id === null) return;
      s.sessionId = id;
      out.push({
        kind: "session",
        line: line.line,
        ts,
        key: "session",
        sessionId: id,
        sessionKind: "main",
        startedAt: ts,
        meta,
      });
    }
  }
  // Every line repeats these; compare before allocating anything.
  const cwd = str(o["cwd"]) ?? null;
  const branch = str(o["gitBranch"]) ?? null;
  const version = str(o["version"]) ?? null;
  const model = isObj(o["message"]) ? (str(o["message"]["model"]) ?? null) : null;
  const newCwd = cwd !== null && cwd !== s.seen.cwd;
  const newBranch = branch !== null && branch !== s.seen.branch && branch !== "HEAD";
  const newModel = model !== null && model !== s.seen.model && model !== "<synthetic>";
  const newVersion = version !== null && version !== s.seen.version;
  if (!newCwd && !newBranch && !newModel && !newVersion) return;
  const rec: SessionRecord = { kind: "session", line: line.line, ts, key: "session", sessionId: s.sessionId };
  if (newCwd) rec.cwd = s.seen.cwd = cwd;
  if (newBranch) rec.gitBranch = s.seen.branch = branch;
  if (newModel) rec.model = s.seen.model = model;
  if (newVersion) {
    s.seen.version = version;
    rec.meta = { version };
  }
  out.push(rec);
}

function summaryMeta(s: ClaudeState): Record<string, unknown> {
  const last = s.summaries[s.summaries.length - 1];
  return last ? { summary: last.summary, summaries: s.summaries } : {};
}

function parentOf(s: ClaudeState, o: Obj): string | null {
  const p = str(o["parentUuid"]);
  if (!p) return null;
  return s.alias[p] ?? p;
}

/** A line with a uuid that yields no record stands for its parent in the tree. */
function quietAlias(s: ClaudeState, o: Obj): void {
  const uuid = str(o["uuid"]);
  if (!uuid) return;
  const parent = parentOf(s, o);
  if (parent) s.alias[uuid] = parent;
}

function lineMeta(o: Obj): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  if (o["isSidechain"] === true) meta["sidechain"] = true;
  const agentId = str(o["agentId"]);
  if (agentId) meta["agent_id"] = agentId;
  return Object.keys(meta).length > 0 ? meta : undefined;
}

function readUser(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const uuid = str(o["uuid"]) ?? `L${line.line}`;
  const parentKey = parentOf(s, o);
  const message = obj(o["message"]);
  const content = message?.["content"];
  const base = lineMeta(o);
  const first = out.length;
  // The first record of a line takes the line's uuid (so tree parents resolve to it); later ones are numbered.
  const key = () => (out.length === first ? uuid : `${uuid}#${out.length - first}`);

  if (o["isCompactSummary"] === true) {
    const text = contentText(content);
    if (s.compact) {
      const { key: ck, meta } = s.compact;
      out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key: ck,
        pointKind: "compaction",
        text,
        update: true,
        meta: { ...meta, ...base, summary_line: line.line },
      });
      s.alias[uuid] = ck;
      s.compact = null;
    } else {
      out.push({
        kind: "resume_point",
        line: line.line,
        ts,
        key: uuid,
        parentKey,
        pointKind: "compaction",
        text,
        meta: base,
      });
    }
    return;
  }

  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : (arr(content) ?? []);
  const textParts: string[] = [];
  let images = 0;
  for (const b of blocks) {
    const block = obj(b);
    if (!block) continue;
    const btype = str(block["type"]);
    if (btype === "tool_result") {
      const callId = str(block["tool_use_id"]) ?? "";
      const text = contentText(block["content"]);
      // Claude Code writes `is_error` only on failures; its absence means the tool succeeded.
      const isError = block["is_error"] === true;
      // A failed shell command's result starts with the harness's "Exit code N" line: the status, not the output.
      const exit = isError ? EXIT_LINE.exec(text) : null;
      out.push({
        kind: "tool_result",
        line: line.line,
        ts,
        key: key(),
        parentKey: out.length === first ? parentKey : null,
        callId,
        output: exit ? text.slice(exit[0].length) : text,
        isError,
        exitCode: exit ? Number(exit[1]) : null,
        meta: { ...base, ...toolUseResultMeta(o["toolUseResult"]) },
      });
    } else if (btype === "text") textParts.push(str(block["text"]) ?? "");
    else if (btype === "image" || btype === "document") images++;
  }
  if (textParts.length === 0 && images === 0) {
    if (out.length === first) quietAlias(s, o);
    return;
  }
  const raw = textParts.join("\n");
  // The user line of a queued prompt is that prompt again: it stands for the queued record in the tree.
  const queued = images === 0 && out.length === first ? dequeue(s, raw) : null;
  if (queued !== null) {
    s.alias[uuid] = queued;
    return;
  }
  const rec = classifyUserText(s, raw, o);
  if (s.subagent && s.warmupOnly === null && rec.typed) {
    // 2.0.x spawned "Warmup" sidechains that only ping the model; they are noise to hide, not work.
    s.warmupOnly = rec.text.trim() === "Warmup";
    if (s.warmupOnly && s.sessionId)
      out.push({
        kind: "session",
        line: line.line,
        ts,
        key: "session",
        sessionId: s.sessionId,
        meta: { warmup: true },
      });
  }
  const meta = { ...base, ...rec.meta, ...(images > 0 ? { images } : {}) };
  // What the user ran in the harness (a slash command, `<bash-input>`) is a call of its own, not a prompt, and the
  // output the harness echoes next is its result.
  const userCall = (callId: string, name: string, input: unknown) =>
    out.push({
      kind: "tool_call",
      line: line.line,
      ts,
      key: key(),
      parentKey,
      callId,
      name,
      input,
      meta: { ...meta, user_initiated: true },
    });
  const userResult = (callId: string, output: string, extra: Record<string, unknown> = {}) =>
    out.push({
      kind: "tool_result",
      line: line.line,
      ts,
      key: key(),
      parentKey,
      callId,
      output,
      isError: null,
      exitCode: null,
      meta: { ...meta, user_initiated: true, ...extra },
    });
  if (rec.slash) {
    userCall(`slash:${uuid}`, "slash_command", rec.text);
    s.pendingSlash = `slash:${uuid}`;
    return;
  }
  if (rec.localOutput !== undefined && s.pendingSlash) {
    userResult(s.pendingSlash, rec.localOutput);
    s.pendingSlash = null;
    return;
  }
  if (rec.bash) {
    userCall(`bash:${uuid}`, "bash", { command: rec.bash });
    s.pendingBash = `bash:${uuid}`;
    return;
  }
  if (rec.bashOutput !== undefined && s.pendingBash) {
    userResult(s.pendingBash, rec.bashOutput.stdout + (rec.bashOutput.stderr ? `\n${rec.bashOutput.stderr}` : ""), {
      stderr: rec.bashOutput.stderr !== "",
    });
    s.pendingBash = null;
    return;
  }
  if (rec.notice) {
    out.push({ kind: "notice", line: line.line, ts, key: key(), parentKey, level: "warning", text: rec.text, meta });
    return;
  }
  out.push({
    kind: "message",
    line: line.line,
    ts,
    key: key(),
    parentKey: out.length === first ? parentKey : null,
    role: rec.role,
    text: rec.text,
    typed: rec.typed,
    meta,
  });
}

function dequeue(s: ClaudeState, raw: string): string | null {
  const text = raw.trim();
  const i = s.queued.findIndex((q) => typeof q === "object" && q.text.trim() === text);
  if (i === -1) return null;
  const key = s.queued[i]!.key;
  s.queued.splice(i, 1);
  return key;
}

interface UserText {
  role: "user" | "system";
  text: string;
  typed: boolean;
  meta: Record<string, unknown>;
  bash?: string;
  bashOutput?: { stdout: string; stderr: string };
  /** A slash command (`/clear`), and the output of one (`<local-command-stdout>`). */
  slash?: boolean;
  localOutput?: string;
  notice?: boolean;
}

function tag(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  return m ? (m[1] ?? "") : undefined;
}

function classifyUserText(s: ClaudeState, raw: string, o: Obj): UserText {
  if (o["isMeta"] === true) return { role: "system", text: raw, typed: false, meta: { injected: "meta" } };
  const command = tag(raw, "command-name");
  if (command !== undefined) {
    const args = tag(raw, "command-args")?.trim() ?? "";
    const name = command.trim();
    return {
      role: "user",
      text: args ? `${name} ${args}` : name,
      typed: false,
      meta: { slash_command: name.replace(/^\//, "") },
      slash: true,
    };
  }
  if (s.pendingSlash) {
    const stdout = tag(raw, "local-command-stdout");
    const stderr = tag(raw, "local-command-stderr");
    if (stdout !== undefined || stderr !== undefined)
      return {
        role: "system",
        text: raw,
        typed: false,
        meta: {},
        localOutput: [stdout, stderr].filter(Boolean).join("\n"),
      };
  }
  const bash = tag(raw, "bash-input");
  if (bash !== undefined) return { role: "user", text: bash, typed: false, meta: {}, bash };
  const stdout = tag(raw, "bash-stdout");
  const stderr = tag(raw, "bash-stderr");
  if (stdout !== undefined || stderr !== undefined) {
    return {
      role: "system",
      text: raw,
      typed: false,
      meta: {},
      bashOutput: { stdout: stdout ?? "", stderr: stderr ?? "" },
    };
  }
  if (INTERRUPT_RE.test(raw.trim()))
    return { role: "system", text: raw.trim(), typed: false, meta: { interrupt: true }, notice: true };
  const stripped = raw.replace(INJECTED_RE, "").trim();
  if (stripped === "") {
    const name = /<([a-z_-]+)>/.exec(raw)?.[1] ?? "markup";
    return { role: "system", text: raw, typed: false, meta: { injected: name } };
  }
  const injected = stripped.length !== raw.trim().length ? { injected_context: raw.length - stripped.length } : {};
  return { role: "user", text: stripped, typed: true, meta: injected };
}

/** Keeps the few structured result fields worth having; whole-file copies (`originalFile`) stay in the transcript. */
function toolUseResultMeta(r: unknown): Record<string, unknown> {
  const tur = obj(r);
  if (!tur) return typeof r === "string" && r.startsWith("Error") ? { result_error: true } : {};
  const meta: Record<string, unknown> = {};
  const filePath = str(tur["filePath"]) ?? str(obj(tur["file"])?.["filePath"]);
  if (filePath) meta["file_path"] = filePath;
  const t = str(tur["type"]);
  if (t === "create" || t === "update") meta["write_type"] = t;
  if (tur["interrupted"] === true) meta["interrupted"] = true;
  const rci = str(tur["returnCodeInterpretation"]);
  if (rci) meta["return_code_interpretation"] = rci;
  const agentId = str(tur["agentId"]);
  if (agentId) meta["spawned_agent_id"] = agentId;
  const stderr = str(tur["stderr"]);
  if (stderr) meta["stderr"] = stderr.length > 4000 ? `${stderr.slice(0, 4000)}…` : stderr;
  return meta;
}

function readAssistant(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const uuid = str(o["uuid"]) ?? `L${line.line}`;
  const message = obj(o["message"]) ?? {};
  const msgId = str(message["id"]) ?? uuid;
  const blocks =
    arr(message["content"]) ??
    (typeof message["content"] === "string" ? [{ type: "text", text: message["content"] }] : []);
  const base = lineMeta(o);
  let continuing = s.msg !== null && s.msg.id === msgId;
  if (!continuing) {
    const earlier = s.recent.find((r) => r.id === msgId) ?? null;
    if (s.msg) s.recent = [...s.recent.filter((r) => r.id !== msgId), s.msg].slice(-8);
    else s.recent = s.recent.filter((r) => r.id !== msgId);
    continuing = earlier !== null;
    s.msg = earlier ?? { id: msgId, key: uuid, text: "", thinking: "", usage: null };
  }
  const m = s.msg!;
  let changed = !continuing;
  const calls: RawRecord[] = [];
  for (const b of blocks) {
    const block = obj(b);
    if (!block) continue;
    const btype = str(block["type"]);
    if (btype === "text") {
      const text = str(block["text"]) ?? "";
      if (text !== "") {
        m.text = m.text === "" ? text : `${m.text}\n\n${text}`;
        changed = true;
      }
    } else if (btype === "thinking" || btype === "redacted_thinking") {
      const thinking = str(block["thinking"]) ?? "";
      if (thinking !== "") {
        m.thinking = m.thinking === "" ? thinking : `${m.thinking}\n\n${thinking}`;
        changed = true;
      }
    } else if (btype === "tool_use" || btype === "server_tool_use") {
      calls.push({
        kind: "tool_call",
        line: line.line,
        ts,
        key: "",
        callId: str(block["id"]) ?? `${uuid}#${calls.length}`,
        name: str(block["name"]) ?? "unknown",
        input: block["input"] ?? {},
        messageKey: m.key,
        meta: base,
      });
    }
  }
  const usage = obj(message["usage"]);
  const meta: Record<string, unknown> = { ...base, message_id: msgId };
  if (m.thinking !== "") meta["thinking"] = m.thinking;
  const model = str(message["model"]);
  if (model) meta["model"] = model;
  const stop = str(message["stop_reason"]);
  if (stop) meta["stop_reason"] = stop;
  if (usage && m.usage === null) {
    m.usage = usage;
    changed = true;
  }
  if (m.usage !== null) meta["usage"] = m.usage;
  if (o["isApiErrorMessage"] === true) meta["api_error"] = true;
  if (changed) {
    out.push({
      kind: "message",
      line: line.line,
      ts,
      key: m.key,
      parentKey: continuing ? undefined : parentOf(s, o),
      role: "assistant",
      text: m.text,
      typed: false,
      update: continuing,
      meta,
    });
  }
  if (o["isApiErrorMessage"] === true && m.text) {
    // The API error is the message's text; the error event hangs off the message.
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: `${uuid}#err`,
      aboutKey: m.key,
      level: "error",
      text: m.text,
      meta: { api_error: true },
    });
  }
  // The line's uuid names its first tool call when it has one, otherwise the merged message.
  calls.forEach((c, i) => {
    c.key = i === 0 && continuing ? uuid : `${uuid}#c${i}`;
    out.push(c);
  });
  if (calls.length === 0 || !continuing) {
    if (uuid !== m.key) s.alias[uuid] = m.key;
  }
}

function readSystem(s: ClaudeState, o: Obj, line: SourceLine, ts: string | null, out: RawRecord[]): void {
  sessionUpdate(s, o, line, ts, out);
  const subtype = str(o["subtype"]);
  const uuid = str(o["uuid"]) ?? `L${line.line}`;
  const content = str(o["content"]) ?? "";
  if (subtype === "compact_boundary") {
    const cm = obj(o["compactMetadata"]) ?? {};
    const logical = str(o["logicalParentUuid"]);
    const meta = { trigger: cm["trigger"] ?? null, pre_tokens: cm["preTokens"] ?? null };
    out.push({
      kind: "resume_point",
      line: line.line,
      ts,
      key: uuid,
      parentKey: logical ? (s.alias[logical] ?? logical) : null,
      pointKind: "compaction",
      text: content,
      meta,
    });
    s.compact = { key: uuid, meta };
    return;
  }
  if (
    subtype === "api_error" ||
    subtype === "error" ||
    subtype === "api_refusal" ||
    subtype === "model_refusal_fallback"
  ) {
    const err = obj(o["error"]);
    const text =
      content ||
      str(err?.["message"]) ||
      str(obj(err?.["error"])?.["message"]) ||
      JSON.stringify(o["error"] ?? subtype);
    out.push({
      kind: "notice",
      line: line.line,
      ts,
      key: uuid,
      parentKey: parentOf(s, o),
      level: "error",
      text,
      meta: { subtype, status: err?.["status"] ?? null, retry_attempt: o["retryAttempt"] ?? null },
    });
    return;
  }
  if (subtype === "stop_hook_summary") {
    const errors = arr(o["hookErrors"]) ?? [];
    if (errors.length > 0 || o["preventedContinuation"] === true) {
      const text =
        errors.map((e) => (typeof e === "string" ? e : JSON.stringify(e))).join("\n") ||
        str(o["stopReason"]) ||
        "stop hook prevented continuation";
      out.push({
        kind: "notice",
        line: line.line,
        ts,
        key: uuid,
        parentKey: parentOf(s, o),
        level: "error",
        text,
        meta: { subtype },
      });
      return;
    }
  }
  if (subtype === "informational" || subtype === "away_summary" || subtype === "local_command") {
    if (content.trim() !== "") {
      out.push({
        kind: "message",
        line: line.line,
        ts,
        key: uuid,
        parentKey: parentOf(s, o),
        role: "system",
        text: content,
        typed: false,
        meta: { subtype },
      });
      return;
    }
  }
  quietAlias(s, o);
}
