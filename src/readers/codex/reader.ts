/**
 * Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`{timestamp, type, payload}` lines), the flat
 * and archived layouts, the early Rust layout (bare meta line, bare response items, `record_type` lines) and the
 * TypeScript-era whole-file `.json`. See research/transcript-formats §3.2. This file detects a rollout and sends
 * each line to the reader of its record type.
 */
import { isObj, type Obj, obj, recordOf, str } from "../json.ts";
import { type LineSink, parseLines, unknownRecord } from "../line-loop.ts";
import type { Reader, SourceLine } from "../types.ts";
import { readCompacted } from "./compaction.ts";
import { readEvent } from "./event-msgs.ts";
import { readLegacyJsonLine } from "./legacy-json.ts";
import { QUIET_ITEMS, RESPONSE_ITEM_TYPES, ROLLOUT_TYPES } from "./record-types.ts";
import { readResponseItem } from "./response-items.ts";
import { readMeta, readTurnContext } from "./session-meta.ts";
import type { CodexState } from "./state.ts";
import { pairWithPending } from "./twins.ts";
import { openingPassed } from "./usage.ts";

export type { CodexState } from "./state.ts";
export { parseOutput } from "./tool-output.ts";

export const codexReader: Reader<CodexState> = {
  provider: "codex",
  version: 3,
  detect(path, firstLine) {
    if (/[\\/]\.codex[\\/]/.test(path) || /rollout-[^\\/]*\.jsonl?$/.test(path)) return true;
    // A rollout line: one of its types with its payload; the TypeScript-era document opens with its session.
    const o = recordOf(firstLine);
    if (o)
      return (
        (ROLLOUT_TYPES.has(String(o["type"])) && isObj(o["payload"])) ||
        (isObj(o["session"]) && Array.isArray(o["items"]))
      );
    return (
      /^\s*\{\s*("timestamp"\s*:\s*"[^"]*"\s*,\s*)?"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context)"/.test(
        firstLine,
      ) || /^\s*\{\s*"session"\s*:/.test(firstLine)
    );
  },
  initialState(path) {
    return {
      sessionId: null,
      legacyJson: null,
      isJsonFile: path.endsWith(".json"),
      pending: null,
      exitCodes: {},
      lastCompact: null,
      seen: { cwd: null, model: null, title: null },
      unknown: {},
    };
  },
  parse(lines, state) {
    return parseLines(lines, structuredClone(state), readLine, (s, line, sink) => {
      if (!s.isJsonFile) return false;
      readLegacyJsonLine(s, line, sink);
      return true;
    });
  },
};

function readLine(s: CodexState, o: Obj, line: SourceLine, sink: LineSink): void {
  const out = sink.out;
  const ts = str(o["timestamp"]) ?? null;
  const type = str(o["type"]);
  const payload = obj(o["payload"]);
  openingPassed(s, ts, out);
  if (s.pending && pairWithPending(s, type, payload ?? o, out)) return;
  if (payload && type) return readEnvelope(s, type, payload, line, ts, sink);
  // Early Rust layout: a bare meta line first, then bare response items and `record_type` state lines.
  if (str(o["record_type"]) !== undefined) return;
  const at = { line, ts, key: `L${line.line}`, envelope: false };
  if (type && RESPONSE_ITEM_TYPES.has(type)) return readResponseItem(s, o, at, out, sink);
  if (!type && str(o["id"]) && s.sessionId === null) return readMeta(s, o, line, ts, out);
  unknownRecord(s, type ?? "", o, line, ts, sink);
}

/** A `{timestamp, type, payload}` line. */
function readEnvelope(s: CodexState, type: string, p: Obj, line: SourceLine, ts: string | null, sink: LineSink): void {
  const out = sink.out;
  if (type === "session_meta") return readMeta(s, p, line, ts, out);
  if (type === "response_item")
    return readResponseItem(s, p, { line, ts, key: `L${line.line}`, envelope: true }, out, sink);
  if (type === "event_msg") return readEvent(s, p, line, ts, out, sink);
  if (type === "compacted") return readCompacted(s, p, line, ts, out);
  if (type === "turn_context") return readTurnContext(s, p, line, ts, out);
  if (QUIET_ITEMS.has(type)) return;
  unknownRecord(s, type, p, line, ts, sink);
}
