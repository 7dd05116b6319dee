/** OpenAI chat completions (`POST /v1/chat/completions`), streamed as server-sent events or answered whole. */
import type { ServerResponse } from "node:http";
import { type Conversation, type Msg, nextId, type Protocol, type Reply, schemaProps, textOf } from "./types.ts";

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

function parse(body: unknown): Conversation {
  const b = body as { messages?: ChatMessage[]; tools?: unknown[]; model?: string; stream?: boolean };
  const msgs: Msg[] = [];
  let system = "";
  for (const m of b.messages ?? []) {
    const text = textOf(m.content);
    if (m.role === "system" || m.role === "developer") {
      system += `${text}\n`;
      msgs.push({ role: "system", text, calls: 0 });
    } else if (m.role === "assistant") msgs.push({ role: "assistant", text, calls: m.tool_calls?.length ?? 0 });
    else if (m.role === "tool") msgs.push({ role: "tool", text, calls: 0 });
    else msgs.push({ role: "user", text, calls: 0 });
  }
  const tools = (b.tools ?? []).flatMap((t) => {
    const fn = (t as { function?: { name?: string; description?: string; parameters?: unknown } }).function;
    return fn?.name ? [{ name: fn.name, description: fn.description ?? "", ...schemaProps(fn.parameters) }] : [];
  });
  return { system, msgs, tools, model: b.model ?? "", stream: b.stream === true };
}

function respond(res: ServerResponse, reply: Reply, conv: Conversation): void {
  const id = nextId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const call = reply.call
    ? {
        id: nextId("call_"),
        type: "function",
        function: {
          name: reply.call.name,
          arguments: typeof reply.call.args === "string" ? reply.call.args : JSON.stringify(reply.call.args),
        },
      }
    : null;
  const finish = call ? "tool_calls" : "stop";
  const tokens = reply.tokens ?? 100;
  const usage = { prompt_tokens: tokens, completion_tokens: 20, total_tokens: tokens + 20 };
  if (!conv.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model: conv.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply.text ?? null, ...(call ? { tool_calls: [call] } : {}) },
            finish_reason: finish,
          },
        ],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: conv.model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`,
    );
  chunk({ role: "assistant", content: "" }, null);
  if (reply.text) chunk({ content: reply.text }, null);
  if (call) chunk({ tool_calls: [{ index: 0, ...call }] }, null);
  chunk({}, finish, { usage });
  res.write("data: [DONE]\n\n");
  res.end();
}

export const chat: Protocol = {
  name: "openai-chat",
  matches: (method, path) => method === "POST" && /\/chat\/completions(\?|$)/.test(path),
  parse,
  respond,
};
