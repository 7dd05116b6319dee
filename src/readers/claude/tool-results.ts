/** A `tool_result` block of a user line: the output of a tool call the model made, and whether it failed. */
import { contentText, type Obj, obj, str } from "../json.ts";
import type { ToolResultRecord } from "../types.ts";

const EXIT_LINE = /^Exit code (\d+)\n/;

/** Where the result goes: the line's number and time, its record key and tree parent, and the line's own meta. */
export interface ResultAt {
  line: number;
  ts: string | null;
  key: string;
  parentKey: string | null;
  base: Record<string, unknown> | undefined;
}

export function toolResult(block: Obj, toolUseResult: unknown, at: ResultAt): ToolResultRecord {
  const text = contentText(block["content"]);
  // Claude Code writes `is_error` only on failures; its absence means the tool succeeded.
  const isError = block["is_error"] === true;
  // A failed shell command's result starts with the harness's "Exit code N" line: the status, not the output.
  const exit = isError ? EXIT_LINE.exec(text) : null;
  return {
    kind: "tool_result",
    line: at.line,
    ts: at.ts,
    key: at.key,
    parentKey: at.parentKey,
    callId: str(block["tool_use_id"]) ?? "",
    output: exit ? text.slice(exit[0].length) : text,
    isError,
    exitCode: exit ? Number(exit[1]) : null,
    meta: { ...at.base, ...toolUseResultMeta(toolUseResult) },
  };
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
