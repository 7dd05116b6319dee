/**
 * The Cursor editor's chats ("composers"), kept in its global `state.vscdb`, an SQLite key-value store
 * (`ItemTable` and `cursorDiskKV`, `key` and `value` columns). In `cursorDiskKV`, `composerData:<composer>` holds one
 * chat: its name, `createdAt` (ms), `modelConfig`, `unifiedMode`, the folder it was opened on
 * (`workspaceIdentifier`, newer releases) and `fullConversationHeadersOnly`, the order of its messages, each kept at
 * `bubbleId:<composer>:<bubble>`: `type` 1 (the person) or 2 (the agent), `text`, `createdAt` (ISO), and on a tool
 * call `toolFormerData` (`name`, `rawArgs`, `status` completed | error | cancelled, `result`, `error`, all JSON in
 * strings). Older releases kept the messages inside the composer (`conversation`); those are reported, not read.
 *
 * The query hands over, composer by composer (oldest first), a row for the composer and one per message in its
 * order, each with only the fields read here: a database of thousands of chats holds far more (file snapshots,
 * code blocks, context) than a conversation needs.
 */
import { num, type Obj, obj, str } from "../json.ts";
import { type LineSink, type LineState, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { jsonIn, toolOutcome } from "./composer-tools.ts";

export interface ComposerState extends LineState {
  /** The folder the chat's first prompt names, once its session says none. */
  cwdKnown: boolean;
}

// `key` ranges, not LIKE, so that SQLite finds the rows by the key's index.
const QUERY = `
WITH composer AS NOT MATERIALIZED (
  SELECT substr(key, 14) AS id, CAST(value AS TEXT) AS doc FROM cursorDiskKV
  WHERE key >= 'composerData:' AND key < 'composerData;'
)
SELECT 'composer' AS row, c.id AS composer, c.id AS id,
  json_object(
    'name', json_extract(c.doc, '$.name'),
    'createdAt', json_extract(c.doc, '$.createdAt'),
    'version', json_extract(c.doc, '$._v'),
    'model', json_extract(c.doc, '$.modelConfig.modelName'),
    'mode', json_extract(c.doc, '$.unifiedMode'),
    'cwd', json_extract(c.doc, '$.workspaceIdentifier.uri.fsPath'),
    'headers', json_array_length(c.doc, '$.fullConversationHeadersOnly'),
    'inline', json_array_length(c.doc, '$.conversation')
  ) AS data,
  json_extract(c.doc, '$.createdAt') AS o1, -1 AS o2
FROM composer c
UNION ALL
SELECT 'bubble', c.id, json_extract(h.value, '$.bubbleId'),
  (SELECT json_object(
    'type', json_extract(v, '$.type'),
    'text', json_extract(v, '$.text'),
    'createdAt', json_extract(v, '$.createdAt'),
    'model', json_extract(v, '$.modelInfo.modelName'),
    'tool', json_extract(v, '$.toolFormerData'),
    'workspaceUris', json_extract(v, '$.workspaceUris')
  ) FROM (SELECT CAST(b.value AS TEXT) AS v)),
  json_extract(c.doc, '$.createdAt'), h.key
FROM composer c, json_each(c.doc, '$.fullConversationHeadersOnly') h
JOIN cursorDiskKV b ON b.key = 'bubbleId:' || c.id || ':' || json_extract(h.value, '$.bubbleId')
ORDER BY o1, composer, o2`;

export const composerReader: Reader<ComposerState> = {
  provider: "cursor",
  id: "cursor-composer",
  version: 1,
  // VS Code's own `state.vscdb` has only `ItemTable`; Cursor's adds `cursorDiskKV`.
  database: { tables: ["ItemTable", "cursorDiskKV"], query: QUERY },
  detect: () => false,
  initialState() {
    return { sessionId: null, unknown: {}, cwdKnown: false };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readRow);
  },
};

function readRow(s: ComposerState, row: Obj, line: SourceLine, sink: LineSink): void {
  const kind = str(row["row"]);
  const data = typeof row["data"] === "string" ? (JSON.parse(row["data"]) as unknown) : row["data"];
  const d = obj(data) ?? {};
  if (kind === "composer") return composer(s, str(row["composer"]) ?? "", d, line, sink);
  // Messages of a chat no session was started for (one kept in the older layout) are not read.
  if (kind === "bubble" && str(row["composer"]) !== s.sessionId) return;
  if (kind === "bubble") return bubble(s, str(row["id"]) ?? `L${line.line}`, d, line, sink);
  unknownRecord(s, `row/${kind ?? ""}`, row, line, null, sink);
}

function composer(s: ComposerState, id: string, d: Obj, line: SourceLine, sink: LineSink): void {
  s.sessionId = null;
  if ((num(d["headers"]) ?? 0) === 0) {
    // A chat opened and never used has no messages; one in the older layout has them inside the composer.
    if ((num(d["inline"]) ?? 0) > 0) unknownRecord(s, "composer/conversation", d, line, null, sink);
    return;
  }
  s.sessionId = id;
  s.cwdKnown = str(d["cwd"]) !== undefined;
  const created = num(d["createdAt"]);
  const ts = created !== undefined ? new Date(created).toISOString() : null;
  const name = str(d["name"]);
  sink.out.push({
    kind: "session",
    line: line.line,
    ts,
    key: "session",
    sessionId: id,
    sessionKind: "main",
    startedAt: ts,
    ...(str(d["cwd"]) ? { cwd: str(d["cwd"]) } : {}),
    ...(name ? { title: name } : {}),
    ...(str(d["model"]) ? { model: str(d["model"]) } : {}),
    meta: { composer_version: d["version"] ?? null, mode: d["mode"] ?? null },
  });
}

function bubble(s: ComposerState, key: string, d: Obj, line: SourceLine, sink: LineSink): void {
  const ts = str(d["createdAt"]) ?? null;
  const text = str(d["text"]) ?? "";
  const base = { line: line.line, ts };
  const type = d["type"];
  if (type === 1) {
    folderOf(s, d, line, sink);
    if (text.trim() !== "") sink.out.push({ kind: "message", ...base, key, role: "user", text, typed: true });
    return;
  }
  if (type !== 2) return unknownRecord(s, `bubble/${String(type)}`, d, line, ts, sink);
  const model = str(d["model"]);
  if (text.trim() !== "")
    sink.out.push({
      kind: "message",
      ...base,
      key,
      role: "assistant",
      text,
      typed: false,
      ...(model ? { meta: { model } } : {}),
    });
  const tool = obj(d["tool"]);
  if (tool) call(tool, key, base, text.trim() !== "", sink);
}

function call(tool: Obj, key: string, base: { line: number; ts: string | null }, said: boolean, sink: LineSink): void {
  const callKey = `${key}#call`;
  const callId = str(tool["toolCallId"]) ?? callKey;
  const name = str(tool["name"]) ?? `tool-${String(tool["tool"] ?? "unknown")}`;
  sink.out.push({
    kind: "tool_call",
    ...base,
    key: callKey,
    callId,
    name,
    input: jsonIn(tool["rawArgs"]) ?? jsonIn(tool["params"]) ?? {},
    messageKey: said ? key : null,
  });
  const outcome = toolOutcome(tool);
  if (outcome)
    sink.out.push({ kind: "tool_result", ...base, key: `${key}#result`, parentKey: callKey, callId, ...outcome });
}

/** The folder a chat worked in, from the first prompt that names one, when its composer does not. */
function folderOf(s: ComposerState, d: Obj, line: SourceLine, sink: LineSink): void {
  if (s.cwdKnown || s.sessionId === null) return;
  const uris = Array.isArray(d["workspaceUris"]) ? d["workspaceUris"] : [];
  const first = str(uris[0]);
  if (!first?.startsWith("file://")) return;
  s.cwdKnown = true;
  const cwd = decodeURIComponent(new URL(first).pathname);
  sink.out.push({ kind: "session", line: line.line, ts: null, key: "session", sessionId: s.sessionId, cwd });
}
