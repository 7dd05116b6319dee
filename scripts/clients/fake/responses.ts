/** OpenAI Responses (`POST /v1/responses`), streamed as server-sent events or answered whole. */
import type { ServerResponse } from "node:http";
import { type Conversation, type Msg, nextId, type Protocol, type Reply, schemaProps, textOf } from "./types.ts";

interface Item {
  type?: string;
  role?: string;
  content?: unknown;
  output?: unknown;
}

function parse(body: unknown): Conversation {
  const b = body as {
    instructions?: string;
    input?: Item[] | string;
    tools?: unknown[];
    model?: string;
    stream?: boolean;
  };
  const msgs: Msg[] = [];
  const input = typeof b.input === "string" ? [{ type: "message", role: "user", content: b.input }] : (b.input ?? []);
  for (const item of input) {
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role === "assistant" ? "assistant" : item.role === "user" ? "user" : "system";
      msgs.push({ role, text: textOf(item.content), calls: 0 });
    } else if (/_call$/.test(type) && type !== "web_search_call") {
      const last = msgs[msgs.length - 1];
      if (last?.role === "assistant") last.calls++;
      else msgs.push({ role: "assistant", text: "", calls: 1 });
    } else if (/_call_output$/.test(type)) {
      msgs.push({ role: "tool", text: typeof item.output === "string" ? item.output : textOf(item.output), calls: 0 });
    }
  }
  const tools = (b.tools ?? []).flatMap((t) => {
    const tool = t as { type?: string; name?: string; parameters?: unknown };
    if (!tool.name) return [];
    return [{ name: tool.name, ...schemaProps(tool.parameters), freeform: tool.type === "custom" }];
  });
  return { system: b.instructions ?? "", msgs, tools, model: b.model ?? "", stream: b.stream === true };
}

function respond(res: ServerResponse, reply: Reply, conv: Conversation): void {
  const id = nextId("resp_");
  const output: Array<Record<string, unknown>> = [];
  if (reply.text)
    output.push({
      type: "message",
      id: nextId("msg_"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    });
  if (reply.call) {
    const callId = nextId("call_");
    output.push(
      typeof reply.call.args === "string"
        ? {
            type: "custom_tool_call",
            id: nextId("ctc_"),
            call_id: callId,
            name: reply.call.name,
            input: reply.call.args,
            status: "completed",
          }
        : {
            type: "function_call",
            id: nextId("fc_"),
            call_id: callId,
            ...(reply.call.namespace ? { namespace: reply.call.namespace } : {}),
            name: reply.call.name,
            arguments: JSON.stringify(reply.call.args),
            status: "completed",
          },
    );
  }
  const tokens = reply.tokens ?? 100;
  const usage = {
    input_tokens: tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens + 20,
  };
  const response = { id, object: "response", status: "completed", model: conv.model, output, usage };
  if (!conv.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev("response.created", { response: { ...response, status: "in_progress", output: [] } });
  output.forEach((item, output_index) => {
    ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress" } });
    if (item["type"] === "message")
      ev("response.output_text.delta", { item_id: item["id"], output_index, content_index: 0, delta: reply.text });
    ev("response.output_item.done", { output_index, item });
  });
  ev("response.completed", { response });
  res.end();
}

export const responses: Protocol = {
  name: "openai-responses",
  matches: (method, path) => method === "POST" && /\/responses(\?|$)/.test(path),
  parse,
  respond,
};
