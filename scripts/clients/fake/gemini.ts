/** Gemini `generateContent` / `streamGenerateContent` (`POST /v1beta/models/<model>:<method>`). */
import type { ServerResponse } from "node:http";
import { type Conversation, type Msg, type Protocol, type Reply, schemaProps } from "./types.ts";

interface Part {
  text?: string;
  functionCall?: unknown;
  functionResponse?: { response?: unknown };
  thought?: boolean;
}

function parse(body: unknown, path: string): Conversation {
  const b = body as {
    contents?: Array<{ role?: string; parts?: Part[] }>;
    systemInstruction?: { parts?: Part[] };
    tools?: Array<{
      functionDeclarations?: Array<{ name: string; parameters?: unknown; parametersJsonSchema?: unknown }>;
    }>;
  };
  const msgs: Msg[] = [];
  for (const c of b.contents ?? []) {
    const parts = c.parts ?? [];
    const text = parts
      .filter((p) => typeof p.text === "string" && p.thought !== true)
      .map((p) => p.text)
      .join("\n");
    if (c.role === "model") {
      msgs.push({ role: "assistant", text, calls: parts.filter((p) => p.functionCall).length });
      continue;
    }
    for (const p of parts)
      if (p.functionResponse)
        msgs.push({ role: "tool", text: JSON.stringify(p.functionResponse.response ?? {}), calls: 0 });
    if (text !== "") msgs.push({ role: "user", text, calls: 0 });
  }
  const tools = (b.tools ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((f) => ({
      name: f.name,
      ...schemaProps(f.parametersJsonSchema ?? f.parameters),
    })),
  );
  const system = (b.systemInstruction?.parts ?? []).map((p) => p.text ?? "").join("\n");
  const model = /models\/([^:]+):/.exec(path)?.[1] ?? "";
  return { system, msgs, tools, model, stream: path.includes(":streamGenerateContent") };
}

function respond(res: ServerResponse, reply: Reply, conv: Conversation): void {
  const parts: Array<Record<string, unknown>> = [];
  if (reply.text) parts.push({ text: reply.text });
  if (reply.call) parts.push({ functionCall: { name: reply.call.name, args: reply.call.args } });
  const tokens = reply.tokens ?? 100;
  const doc = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 20, totalTokenCount: tokens + 20 },
    modelVersion: conv.model,
  };
  if (!conv.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(doc));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(`data: ${JSON.stringify(doc)}\n\n`);
  res.end();
}

export const gemini: Protocol = {
  name: "gemini",
  matches: (method, path) => method === "POST" && /\/models\/[^/]+:(stream)?[gG]enerateContent/.test(path),
  parse,
  respond,
};
