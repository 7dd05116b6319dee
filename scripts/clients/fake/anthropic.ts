/** Anthropic Messages (`POST /v1/messages`), streamed as server-sent events or answered whole. */
import type { ServerResponse } from "node:http";
import { type Conversation, type Msg, nextId, type Protocol, type Reply, schemaProps, textOf } from "./types.ts";

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
}

function parse(body: unknown): Conversation {
  const b = body as { system?: unknown; messages?: Array<{ role: string; content: unknown }>; tools?: unknown[] };
  const msgs: Msg[] = [];
  for (const m of b.messages ?? []) {
    const blocks: Block[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Block[]);
    if (m.role === "assistant") {
      msgs.push({
        role: "assistant",
        text: textOf(blocks.filter((x) => x.type === "text")),
        calls: blocks.filter((x) => x.type === "tool_use").length,
      });
      continue;
    }
    for (const x of blocks)
      if (x.type === "tool_result") msgs.push({ role: "tool", text: textOf(x.content), calls: 0 });
    const text = textOf(blocks.filter((x) => x.type === "text"));
    if (text !== "") msgs.push({ role: "user", text, calls: 0 });
  }
  const tools = (b.tools ?? []).map((t) => {
    const tool = t as { name: string; input_schema?: unknown };
    return { name: tool.name, ...schemaProps(tool.input_schema) };
  });
  const stream = (body as { stream?: boolean }).stream === true;
  return { system: textOf(b.system), msgs, tools, model: String((body as { model?: string }).model ?? ""), stream };
}

function respond(res: ServerResponse, reply: Reply, conv: Conversation): void {
  const id = nextId("msg_");
  const content: Array<Record<string, unknown>> = [];
  if (reply.text) content.push({ type: "text", text: reply.text });
  if (reply.call)
    content.push({ type: "tool_use", id: nextId("toolu_"), name: reply.call.name, input: reply.call.args });
  const stop = reply.call ? "tool_use" : "end_turn";
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!conv.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ id, type: "message", role: "assistant", model: conv.model, content, stop_reason: stop, usage }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const ev = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev("message_start", {
    message: { id, type: "message", role: "assistant", model: conv.model, content: [], stop_reason: null, usage },
  });
  content.forEach((block, index) => {
    if (block["type"] === "text") {
      ev("content_block_start", { index, content_block: { type: "text", text: "" } });
      ev("content_block_delta", { index, delta: { type: "text_delta", text: block["text"] } });
    } else {
      ev("content_block_start", { index, content_block: { ...block, input: {} } });
      ev("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block["input"]) },
      });
    }
    ev("content_block_stop", { index });
  });
  ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  ev("message_stop", {});
  res.end();
}

export const anthropic: Protocol = {
  name: "anthropic",
  matches: (method, path) => method === "POST" && path.startsWith("/v1/messages") && !path.includes("count_tokens"),
  parse,
  respond,
};
