/**
 * Augment's own service (`POST /chat-stream` at the tenant URL): the request carries the exchanges so far
 * (`chat_history[]`, each with `request_nodes` — text `0`, tool result `1` — and `response_nodes` — text `0`, tool
 * use `5`) and the current turn's `message` and `nodes`; the answer is newline-delimited JSON, each line a chunk
 * `{text, nodes[]}`, the last one with `stop_reason` and a token-usage node (`10`) the CLI budgets its context by.
 */
import type { ServerResponse } from "node:http";
import { type Conversation, type Msg, nextId, type Protocol, type Reply, schemaProps } from "./types.ts";

/** The context window the answers report; a reply's `tokens` beyond it make the CLI summarize its history. */
const CONTEXT = 200_000;

interface Node {
  type?: number;
  content?: string;
  text_node?: { content?: string };
  tool_result_node?: { content?: string };
  tool_use?: unknown;
}

interface Exchange {
  request_message?: string;
  response_text?: string;
  request_nodes?: Node[];
  response_nodes?: Node[];
}

/** A request's user side: its text nodes (or the plain message) and its tool results, in order. */
function requestMsgs(nodes: Node[], message: string | undefined, msgs: Msg[]): void {
  let typed = false;
  for (const n of nodes) {
    if (n.type === 1) msgs.push({ role: "tool", text: n.tool_result_node?.content ?? "", calls: 0 });
    const text = n.type === 0 ? n.text_node?.content : undefined;
    if (text) {
      msgs.push({ role: "user", text, calls: 0 });
      typed = true;
    }
  }
  if (!typed && message) msgs.push({ role: "user", text: message, calls: 0 });
}

function parse(body: unknown): Conversation {
  const b = body as {
    model?: string;
    message?: string;
    nodes?: Node[];
    chat_history?: Exchange[];
    tool_definitions?: Array<{ name: string; description?: string; input_schema_json?: string }>;
  };
  const msgs: Msg[] = [];
  for (const x of b.chat_history ?? []) {
    requestMsgs(x.request_nodes ?? [], x.request_message, msgs);
    const out = x.response_nodes ?? [];
    const text = out
      .filter((n) => n.type === 0)
      .map((n) => n.content ?? "")
      .join("");
    msgs.push({
      role: "assistant",
      text: text || (x.response_text ?? ""),
      calls: out.filter((n) => n.type === 5).length,
    });
  }
  requestMsgs(b.nodes ?? [], b.message, msgs);
  const tools = (b.tool_definitions ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? "",
    ...schemaProps(t.input_schema_json ? JSON.parse(t.input_schema_json) : {}),
  }));
  return { system: "", msgs, tools, model: b.model ?? "", stream: true };
}

function respond(res: ServerResponse, reply: Reply): void {
  res.writeHead(200, { "content-type": "application/json" });
  const line = (chunk: Record<string, unknown>) => res.write(`${JSON.stringify(chunk)}\n`);
  let id = 0;
  if (reply.text) line({ text: reply.text, nodes: [{ id: ++id, type: 0, content: reply.text }] });
  if (reply.call) {
    const input = typeof reply.call.args === "string" ? reply.call.args : JSON.stringify(reply.call.args);
    const tool_use = { tool_use_id: nextId("toolu_"), tool_name: reply.call.name, input_json: input };
    line({ text: "", nodes: [{ id: ++id, type: 5, content: "", tool_use }] });
  }
  const usage = { input_tokens: reply.tokens ?? 1000, output_tokens: 20, max_context_tokens: CONTEXT };
  line({ text: "", nodes: [{ id: ++id, type: 10, content: "", token_usage: usage }], stop_reason: reply.call ? 3 : 1 });
  res.end();
}

export const augment: Protocol = {
  name: "augment",
  matches: (method, path) => method === "POST" && /^\/chat-stream(\?|$)/.test(path),
  parse,
  respond: (res, reply) => respond(res, reply),
};
