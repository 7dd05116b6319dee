/**
 * A fake OpenAI chat-completions API on 127.0.0.1 for the agents' hook tests: every answer is "Done." (streamed or
 * whole, as asked), `/v1/models` lists `models`, and each request's messages are kept, flattened to text, in order.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeChat {
  /** `http://127.0.0.1:PORT` (the agents want `${url}/v1`). */
  url: string;
  requests: string[];
  close(): void;
}

export async function fakeChat(models: readonly string[]): Promise<FakeChat> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.url?.startsWith("/v1/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        const data = models.map((id) => ({ id, object: "model" }));
        return void res.end(JSON.stringify({ object: "list", data }));
      }
      if (!req.url?.startsWith("/v1/chat/completions")) return void res.writeHead(404).end();
      const request = JSON.parse(body) as { model?: string; stream?: boolean; messages?: Array<{ content?: unknown }> };
      requests.push((request.messages ?? []).map((m) => JSON.stringify(m.content)).join("\n"));
      const base = { id: "chatcmpl-1", created: 1, model: request.model ?? "fake" };
      const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
      if (!request.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        const choices = [{ index: 0, message: { role: "assistant", content: "Done." }, finish_reason: "stop" }];
        return void res.end(JSON.stringify({ ...base, object: "chat.completion", choices, usage }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null, more: object = {}) => {
        const choices = [{ index: 0, delta, finish_reason: finish }];
        res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...more })}\n\n`);
      };
      chunk({ role: "assistant", content: "" }, null);
      chunk({ content: "Done." }, null);
      chunk({}, "stop", { usage });
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => server.close() };
}
