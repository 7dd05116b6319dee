/**
 * A fake OpenAI-compatible model server on 127.0.0.1 (chat completions streamed as server-sent events), for the
 * commands that send a prompt to a model (`ask`, `resume --ai`). The test sets what it answers, given what it was
 * sent; `hold` delays everything after the first piece until released.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  system: string;
  user: string;
  /** The request's Authorization header, if any. */
  authorization: string | undefined;
}

export interface FakeModel {
  /** Base URL for `--url`. */
  url: string;
  /** Every prompt received, oldest first. */
  seen: Exchange[];
  /** The pieces of the next answers (streamed one delta each). */
  reply: (ex: Exchange) => string[];
  hold: Promise<void> | null;
  close(): Promise<void>;
}

const text = (m: { content: unknown } | undefined) =>
  typeof m?.content === "string"
    ? m.content
    : Array.isArray(m?.content)
      ? (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("")
      : "";

export async function startFakeModel(): Promise<FakeModel> {
  const fake: FakeModel = {
    url: "",
    seen: [],
    reply: () => ["nothing"],
    hold: null,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> };
      const ex = {
        system: text(parsed.messages.find((m) => m.role === "system" || m.role === "developer")),
        user: text(parsed.messages.find((m) => m.role === "user")),
        authorization: req.headers.authorization,
      };
      fake.seen.push(ex);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let pieces: string[];
      try {
        pieces = fake.reply(ex);
      } catch (error) {
        pieces = [`fake model: ${String(error)}`];
      }
      res.write(chunk({ role: "assistant", content: pieces[0] }, null));
      if (fake.hold) await fake.hold;
      for (const p of pieces.slice(1)) res.write(chunk({ content: p }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

/** The id of the evidence block (in a prompt `cairn ask` sent) whose text holds `needle`. */
export function blockWith(pack: string, needle: string): string {
  for (const block of pack.split(/\n(?=\[e:)/)) {
    const id = /^\[e:([^\]]+)\]/.exec(block)?.[1];
    if (id && block.includes(needle)) return id;
  }
  throw new Error(`no block with ${needle}`);
}

/** The facts the prompt lists to keep, and the brief it was given. */
function parsePrompt(ex: Exchange): { facts: string[]; brief: string } {
  const [brief, list] = ex.user.split("## Facts to keep (word for word)");
  const facts = (list ?? "")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  return { facts, brief: brief ?? "" };
}

const squash = (s: string) => s.replace(/\s+/g, " ");

/** What a faithful model answers `resume --ai`'s prompt: each fact to keep as a line citing the brief line holding it. */
export function faithfulBrief(ex: Exchange, drop: (fact: string) => boolean = () => false): string[] {
  const { facts, brief } = parsePrompt(ex);
  const lines = brief.split("\n");
  return facts
    .filter((f) => !drop(f))
    .map((fact) => {
      const line = lines.find((l) => squash(l).includes(fact) && /\[e:[0-9a-f]+\]/.test(l));
      const id = line ? /\[e:([0-9a-f]+)\]/.exec(line)![1] : null;
      return `- ${fact}${id ? ` [e:${id}]` : ""}\n`;
    });
}

/** A model that repeats its evidence: each block's first lines, citing it (the probes check what reaches it). */
export function echoEvidence(ex: Exchange): string[] {
  return ex.user
    .split(/\n(?=\[e:)/)
    .filter((block) => block.startsWith("[e:"))
    .slice(0, 12)
    .map((block) => `${block.split("\n").slice(0, 3).join(" ")} ${/^\[e:[^\]]+\]/.exec(block)![0]}.\n`);
}
