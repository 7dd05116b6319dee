/**
 * An assistant turn written as Anthropic-style content blocks (`text`, `thinking`, `tool_use`), as Cline and Factory
 * Droid store it: the reply's text as one message (or none when the turn only called tools) and each `tool_use` as
 * a call, keyed after the message so that re-reading a rewritten document gives the same keys.
 */
import { type Obj, str } from "./json.ts";
import type { LineSink } from "./line-loop.ts";

const textOf = (blocks: readonly Obj[], type: string, field: string) =>
  blocks
    .filter((b) => b["type"] === type)
    .map((b) => str(b[field]) ?? "")
    .join("\n");

export function assistantBlocks(
  blocks: readonly Obj[],
  key: string,
  base: { line: number; ts: string | null; parentKey?: string | null },
  meta: Obj,
  sink: LineSink,
): void {
  const text = textOf(blocks, "text", "text");
  const thinking = textOf(blocks, "thinking", "thinking");
  if (thinking) meta["thinking"] = thinking;
  const calls = blocks.filter((b) => b["type"] === "tool_use");
  if (text !== "" || calls.length === 0)
    sink.out.push({ kind: "message", ...base, key, role: "assistant", text, typed: false, meta });
  calls.forEach((b, i) => {
    sink.out.push({
      kind: "tool_call",
      ...base,
      key: `${key}#c${i}`,
      callId: str(b["id"]) ?? `${key}#${i}`,
      name: str(b["name"]) ?? "unknown",
      input: b["input"] ?? {},
      messageKey: text !== "" ? key : null,
    });
  });
}
