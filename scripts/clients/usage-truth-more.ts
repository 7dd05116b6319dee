/**
 * Usage truth counters of Command Code, gptme, mini-swe-agent, Deep Agents and Hermes (see usage-truth.ts), each
 * from the raw files alone.
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { files, jsonl } from "./truth.ts";
import { type Calls, n } from "./usage-calls.ts";

// biome-ignore lint/suspicious/noExplicitAny: the counters read raw JSON loosely on purpose, apart from cairn's typed readers
type Rec = Record<string, any>;

/** Command Code: a message entry's `usage` (AI SDK counts: the input holds the cache reads and writes), by message id. */
function commandcode(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => /\/projects\/.*\.jsonl$/.test(p) && !p.endsWith(".checkpoints.jsonl")))
    for (const r of jsonl(f)) {
      const u = r["type"] === "message" ? r["usage"] : null;
      if (!u) continue;
      const read = n(u["cacheReadTokens"]);
      const write = n(u["cacheWriteTokens"]);
      c.add(r["message"]?.["meta"]?.["messageId"] ?? r["id"], {
        input: n(u["inputTokens"]) - read - write,
        output: n(u["outputTokens"]),
        cacheRead: read,
        cacheWrite: write,
      });
    }
}

/** gptme: an assistant message's `metadata.usage` in `conversation.jsonl` (input already without the cache), by time. */
function gptme(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/conversation.jsonl")))
    for (const r of jsonl(f)) {
      const u = r["role"] === "assistant" ? r["metadata"]?.["usage"] : null;
      if (u)
        c.add(`${r["timestamp"]}|${r["metadata"]["model"]}`, {
          input: n(u["input_tokens"]),
          output: n(u["output_tokens"]),
          cacheRead: n(u["cache_read_tokens"]),
          cacheWrite: n(u["cache_creation_tokens"]),
          reasoning: n(u["reasoning_tokens"]),
        });
    }
}

/** mini-swe-agent: LiteLLM's response kept in an assistant message's `extra` (prompt with its cache), by response id. */
function mini(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".traj.json")))
    for (const m of (JSON.parse(readFileSync(f, "utf8"))["messages"] ?? []) as Rec[]) {
      const resp = m["role"] === "assistant" ? m["extra"]?.["response"] : null;
      const u = resp?.["usage"];
      if (!u) continue;
      const read = n(u["prompt_tokens_details"]?.["cached_tokens"]) || n(u["cache_read_input_tokens"]);
      const write = n(u["cache_creation_input_tokens"]);
      c.add(resp["id"] ?? null, {
        input: n(u["prompt_tokens"]) - read - write,
        output: n(u["completion_tokens"]),
        cacheRead: read,
        cacheWrite: write,
        reasoning: n(u["completion_tokens_details"]?.["reasoning_tokens"]),
      });
    }
}

/**
 * Deep Agents: LangChain AI messages' `usage_metadata` in the LangGraph checkpointer's MessagePack rows (`writes`
 * and the checkpoints that inline the whole list), by message id; the input is the sum of every input kind.
 */
function deepagents(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/sessions.db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      const blobs = [
        ...(db.prepare("SELECT value AS v FROM writes WHERE type = 'msgpack'").all() as Rec[]),
        ...(db.prepare("SELECT checkpoint AS v FROM checkpoints").all() as Rec[]),
      ];
      for (const b of blobs)
        walk(unpack(b["v"] as Buffer), (o) => {
          const u = o["usage_metadata"];
          if (!u || typeof u !== "object" || o["type"] !== "ai") return;
          const read = n(u["input_token_details"]?.["cache_read"]);
          const write = n(u["input_token_details"]?.["cache_creation"]);
          c.add(o["id"] ?? null, {
            input: n(u["input_tokens"]) - read - write,
            output: n(u["output_tokens"]),
            cacheRead: read,
            cacheWrite: write,
            reasoning: n(u["output_token_details"]?.["reasoning"]),
          });
        });
    } finally {
      db.close();
    }
  }
}

/** Hermes: `session_model_usage`, one running total per session, route and task (input without the cache). */
function hermes(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/state.db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      for (const u of db.prepare("SELECT * FROM session_model_usage").all() as Rec[])
        c.add(
          [
            u["session_id"],
            u["model"],
            u["billing_provider"],
            u["billing_base_url"],
            u["billing_mode"],
            u["task"],
          ].join("|"),
          {
            input: n(u["input_tokens"]),
            output: n(u["output_tokens"]),
            cacheRead: n(u["cache_read_tokens"]),
            cacheWrite: n(u["cache_write_tokens"]),
            reasoning: n(u["reasoning_tokens"]),
          },
        );
    } finally {
      db.close();
    }
  }
}

function walk(v: unknown, visit: (o: Rec) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, visit);
  else if (v && typeof v === "object" && !Buffer.isBuffer(v)) {
    visit(v as Rec);
    for (const x of Object.values(v)) walk(x, visit);
  }
}

/**
 * MessagePack as LangGraph writes it: an extension's payload is MessagePack itself (a Python object as its module,
 * class and fields), decoded in place; only what such rows hold is read.
 */
function unpack(buf: Buffer): unknown {
  let at = 0;
  const u8 = () => buf[at++]!;
  const be = (k: number) => {
    let v = 0;
    for (let i = 0; i < k; i++) v = v * 256 + u8();
    return v;
  };
  const bytes = (k: number) => {
    at += k;
    return buf.subarray(at - k, at);
  };
  const many = (k: number) => Array.from({ length: k }, () => value());
  const map = (k: number) => {
    const o: Rec = {};
    for (let i = 0; i < k; i++) o[String(value())] = value();
    return o;
  };
  const ext = (k: number) => {
    at++; // the extension's code
    const payload = bytes(k);
    try {
      return unpack(payload);
    } catch {
      return null;
    }
  };
  const value = (): unknown => {
    const t = u8();
    if (t < 0x80) return t;
    if (t < 0x90) return map(t & 0x0f);
    if (t < 0xa0) return many(t & 0x0f);
    if (t < 0xc0) return bytes(t & 0x1f).toString("utf8");
    if (t >= 0xe0) return t - 0x100;
    switch (t) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
      case 0xc5:
      case 0xc6:
        return bytes(be(1 << (t - 0xc4)));
      case 0xc7:
      case 0xc8:
      case 0xc9:
        return ext(be(1 << (t - 0xc7)));
      case 0xca:
        return bytes(4).readFloatBE(0);
      case 0xcb:
        return bytes(8).readDoubleBE(0);
      case 0xcc:
      case 0xcd:
      case 0xce:
      case 0xcf:
        return be(1 << (t - 0xcc));
      case 0xd0:
        return bytes(1).readInt8(0);
      case 0xd1:
        return bytes(2).readInt16BE(0);
      case 0xd2:
        return bytes(4).readInt32BE(0);
      case 0xd3:
        return Number(bytes(8).readBigInt64BE(0));
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        return ext(1 << (t - 0xd4));
      case 0xd9:
      case 0xda:
      case 0xdb:
        return bytes(be(1 << (t - 0xd9))).toString("utf8");
      case 0xdc:
      case 0xdd:
        return many(be(2 << (t - 0xdc)));
      case 0xde:
      case 0xdf:
        return map(be(2 << (t - 0xde)));
      default:
        throw new Error(`MessagePack type 0x${t.toString(16)}`);
    }
  };
  return value();
}

export const MORE_COUNTERS: Record<string, (home: string, c: Calls) => void> = {
  commandcode,
  gptme,
  mini,
  deepagents,
  hermes,
};
