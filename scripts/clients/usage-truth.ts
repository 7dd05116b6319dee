/**
 * The tokens a fixture's agent recorded for its model calls, counted straight from the files the CLI wrote with
 * nothing from cairn's readers: each agent's rule names the record that carries one call's counts and what names a
 * call its files may write more than once (the largest copy counts). Counts are cairn's terms: `input` read neither
 * from nor into the cache, `output` with the reasoning inside it, `cacheWrite` of any duration.
 */
import { readFileSync } from "node:fs";
import { zstdDecompressSync } from "node:zlib";
import Database from "better-sqlite3";
import { files, jsonl } from "./truth.ts";
import { Calls, n, type UsageTruth } from "./usage-calls.ts";
import { MORE_COUNTERS } from "./usage-truth-more.ts";

export type { UsageTruth } from "./usage-calls.ts";

// biome-ignore lint/suspicious/noExplicitAny: the counters read raw JSON loosely on purpose, apart from cairn's typed readers
type Rec = Record<string, any>;

/** Claude Code: `message.usage` on every line of an assistant message; message id and request id name the call. */
function claude(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl")))
    for (const r of jsonl(f)) {
      const u = r["message"]?.["usage"];
      if (r["type"] !== "assistant" || !u) continue;
      c.add(`${r["message"]["id"]}/${r["requestId"]}`, {
        input: n(u["input_tokens"]),
        output: n(u["output_tokens"]),
        cacheRead: n(u["cache_read_input_tokens"]),
        cacheWrite: n(u["cache_creation_input_tokens"]),
      });
    }
}

/** Codex: a `token_count` event whose running total moved; `last_token_usage.input_tokens` includes the cached. */
function codex(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) {
    let total = -1;
    for (const r of jsonl(f)) {
      const info = r["type"] === "event_msg" && r["payload"]?.["type"] === "token_count" ? r["payload"]["info"] : null;
      if (!info || n(info["total_token_usage"]?.["total_tokens"]) === total) continue;
      total = n(info["total_token_usage"]?.["total_tokens"]);
      const u = info["last_token_usage"] ?? {};
      c.add(null, {
        input: n(u["input_tokens"]) - n(u["cached_input_tokens"]),
        cacheRead: n(u["cached_input_tokens"]),
        output: n(u["output_tokens"]),
        reasoning: n(u["reasoning_output_tokens"]),
      });
    }
  }
}

/** pi's entries: an assistant message's `usage`; a fork repeats its parent's entries (time and counts alike). */
function piEntries(entries: Rec[], c: Calls): void {
  for (const r of entries) {
    const m = r["type"] === "message" ? r["message"] : null;
    const u = m?.["role"] === "assistant" ? m["usage"] : null;
    if (!u || typeof u !== "object") continue;
    const counts = {
      input: n(u["input"]),
      output: n(u["output"]),
      cacheRead: n(u["cacheRead"]),
      cacheWrite: n(u["cacheWrite"]),
    };
    c.add(`${r["timestamp"]}|${JSON.stringify(counts)}`, counts);
  }
}

/** pi and Oh My Pi: one JSONL file of entries per session. */
function pi(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".jsonl"))) piEntries(jsonl(f), c);
}

/**
 * OpenClaw: pi's entries, as rows of its agent database (`transcript_events`, zstd-compressed from 2026.9.3) or
 * as JSONL sessions before (not the `.trajectory.jsonl` run traces; `sessions.json`'s `lastCallUsage` only repeats
 * a session's last call).
 */
function openclaw(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/openclaw-agent.sqlite"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT * FROM transcript_events ORDER BY session_id, seq").all() as Rec[];
      const json = (r: Rec): string => r["event_json"] ?? zstdDecompressSync(r["event_zstd"]).toString("utf8");
      piEntries(
        rows.map((r) => JSON.parse(json(r))),
        c,
      );
    } finally {
      db.close();
    }
  }
  for (const f of files(home).filter((p) => /\/sessions\/[^/]+\.jsonl$/.test(p) && !p.endsWith(".trajectory.jsonl")))
    piEntries(jsonl(f), c);
}

/**
 * Gemini's counts (`tokens` of Gemini CLI, `usageMetadata` of Qwen Code): the prompt includes the cached part, the
 * thoughts come on top of the candidates unless the total says they are inside them, the tool-use prompt is input.
 */
function geminiCounts(prompt: number, cached: number, tool: number, out: number, thoughts: number, total: unknown) {
  const inside = typeof total === "number" && thoughts > 0 && total === prompt + tool + out;
  return {
    input: prompt - cached + tool,
    cacheRead: cached,
    output: inside ? out : out + thoughts,
    reasoning: thoughts,
  };
}

/** Gemini CLI: a `gemini` message's `tokens`, re-stated as it streams and when the history is rewritten (by id). */
function gemini(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => /\/chats\/.*\.jsonl?$/.test(p))) {
    const lines = f.endsWith(".json") ? (JSON.parse(readFileSync(f, "utf8"))["messages"] as Rec[]) : jsonl(f);
    for (const r of lines) {
      const t = r["type"] === "gemini" ? r["tokens"] : null;
      if (t)
        c.add(
          r["id"],
          geminiCounts(n(t["input"]), n(t["cached"]), n(t["tool"]), n(t["output"]), n(t["thoughts"]), t["total"]),
        );
    }
  }
}

/** Qwen Code: an assistant record's `usageMetadata`, by its uuid. */
function qwen(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => /\/(chats|subagents)\/.*\.jsonl$/.test(p)))
    for (const r of jsonl(f)) {
      const u = r["type"] === "assistant" ? r["usageMetadata"] : null;
      if (u)
        c.add(
          r["uuid"],
          geminiCounts(
            n(u["promptTokenCount"]),
            n(u["cachedContentTokenCount"]),
            n(u["toolUsePromptTokenCount"]),
            n(u["candidatesTokenCount"]),
            n(u["thoughtsTokenCount"]),
            u["totalTokenCount"],
          ),
        );
    }
}

/** Copilot CLI: `session.usage_record` events, one per API call, named by their accounting id; input holds the cached. */
function copilot(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/events.jsonl")))
    for (const r of jsonl(f)) {
      const u = r["type"] === "session.usage_record" ? r["data"]?.["usage"] : null;
      if (u)
        c.add(u["accounting"]?.["usageId"] ?? null, {
          input: n(u["inputTokens"]) - n(u["cacheReadTokens"]),
          cacheRead: n(u["cacheReadTokens"]),
          cacheWrite: n(u["cacheWriteTokens"]),
          output: n(u["outputTokens"]),
        });
    }
}

/** OpenCode and Kilo: an assistant row of `message` with `tokens` (input without the cache), one per model call. */
function opencodeDb(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".db"))) {
    const db = new Database(f, { readonly: true, fileMustExist: true });
    try {
      for (const m of db.prepare("SELECT id, data FROM message").all() as Rec[]) {
        const d = JSON.parse(m["data"]) as Rec;
        const t = d["role"] === "assistant" ? d["tokens"] : null;
        if (!t) continue;
        const r = n(t["reasoning"]);
        const parts = n(t["input"]) + n(t["output"]) + r + n(t["cache"]?.["read"]) + n(t["cache"]?.["write"]);
        c.add(m["id"], {
          input: n(t["input"]),
          output: n(t["output"]) + (r > 0 && n(t["total"]) === parts ? r : 0),
          reasoning: r,
          cacheRead: n(t["cache"]?.["read"]),
          cacheWrite: n(t["cache"]?.["write"]),
        });
      }
    } finally {
      db.close();
    }
  }
}

/** Kimi CLI: a `StatusUpdate`'s `token_usage` in a wire log (`input_other` is the uncached input), by message id. */
function kimi(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/wire.jsonl")))
    for (const r of jsonl(f)) {
      const p = r["message"]?.["type"] === "StatusUpdate" ? r["message"]["payload"] : null;
      const u = p?.["token_usage"];
      if (u)
        c.add(p["message_id"] ?? null, {
          input: n(u["input_other"]),
          output: n(u["output"]),
          cacheRead: n(u["input_cache_read"]),
          cacheWrite: n(u["input_cache_creation"]),
        });
    }
}

/** Cline: an assistant message's `metrics` in a `.messages.json` document (session's or subagent's), by message id. */
function cline(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith(".messages.json")))
    for (const m of (JSON.parse(readFileSync(f, "utf8"))["messages"] ?? []) as Rec[]) {
      const u = m["role"] === "assistant" ? m["metrics"] : null;
      if (u)
        c.add(m["id"] ?? null, {
          input: n(u["inputTokens"]),
          output: n(u["outputTokens"]),
          cacheRead: n(u["cacheReadTokens"]),
          cacheWrite: n(u["cacheWriteTokens"]),
        });
    }
}

/** Continue: a history item's assistant `message.usage` (OpenAI form, prompt with its cached part), one per reply. */
function cont(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => /\/sessions\/[0-9a-f-]{36}\.json$/.test(p)))
    for (const h of (JSON.parse(readFileSync(f, "utf8"))["history"] ?? []) as Rec[]) {
      const u = h["message"]?.["role"] === "assistant" ? h["message"]["usage"] : null;
      if (!u) continue;
      const d = u["promptTokensDetails"] ?? {};
      c.add(null, {
        input: n(u["prompt_tokens"]) - n(d["cachedTokens"]) - n(d["cacheWriteTokens"]),
        output: n(u["completion_tokens"]),
        cacheRead: n(d["cachedTokens"]),
        cacheWrite: n(d["cacheWriteTokens"]),
      });
    }
}

/**
 * Auggie: a token-usage node (type 10) among an exchange's response nodes, in the session's chat history and its
 * subagents' (not the copies a history summary keeps in its request node).
 */
function auggie(home: string, c: Calls): void {
  const history = (entries: Rec[]) => {
    for (const e of entries)
      for (const node of e["exchange"]?.["response_nodes"] ?? []) {
        const u = node["type"] === 10 ? node["token_usage"] : null;
        if (u)
          c.add(`${e["exchange"]["request_id"]}#${node["id"]}`, {
            input: n(u["input_tokens"]),
            output: n(u["output_tokens"]),
            cacheRead: n(u["cache_read_input_tokens"]),
            cacheWrite: n(u["cache_creation_input_tokens"]),
          });
      }
  };
  for (const f of files(home).filter((p) => /\/sessions\/[^/]+\.json$/.test(p))) {
    const doc = JSON.parse(readFileSync(f, "utf8")) as Rec;
    history(doc["chatHistory"] ?? []);
    for (const sub of doc["subAgents"] ?? []) history(sub["chatHistory"] ?? []);
  }
}

/**
 * OpenHands: `stats.usage_to_metrics.*.token_usages[]` of each conversation's `base_state.json`, one per call by
 * `response_id` (a parent's `task:` entry repeats its subagent's); LiteLLM's prompt holds the cache reads and writes.
 */
function openhands(home: string, c: Calls): void {
  for (const f of files(home).filter((p) => p.endsWith("/base_state.json")))
    for (const m of Object.values(JSON.parse(readFileSync(f, "utf8"))["stats"]?.["usage_to_metrics"] ?? {}) as Rec[])
      for (const u of m["token_usages"] ?? [])
        c.add(u["response_id"] || null, {
          input: n(u["prompt_tokens"]) - n(u["cache_read_tokens"]) - n(u["cache_write_tokens"]),
          output: n(u["completion_tokens"]),
          cacheRead: n(u["cache_read_tokens"]),
          cacheWrite: n(u["cache_write_tokens"]),
          reasoning: n(u["reasoning_tokens"]),
        });
}

const COUNTERS: Record<string, (home: string, c: Calls) => void> = {
  claude,
  codex,
  pi,
  omp: pi,
  openclaw,
  copilot,
  opencode: opencodeDb,
  kilo: opencodeDb,
  kimi,
  cline,
  continue: cont,
  auggie,
  openhands,
  gemini,
  qwen,
  ...MORE_COUNTERS,
};

/**
 * Agents whose files hold no token count of a model call at all (cairn never estimates one), or only a count it
 * cannot split into calls; and agents whose counts cairn does not read yet, each with why.
 */
export const NO_USAGE: Record<string, string> = {
  aider: "records only rounded counts in a text line (Tokens: 2.5k sent): never estimated",
  crush:
    "sessions.prompt_tokens and completion_tokens are the last call's (assigned, not added to); only cost is a total",
  droid: "this run wrote no <session>.settings.json, whose tokenUsage (a session total) is all Droid records of tokens",
  interpreter: "records no tokens",
  nanocoder: "records no tokens",
  vibe: "records a session's running tokenUsage (and each call's only in the journal since the last snapshot): not read",
};

/** The usage truth of an agent's fixture; null for an agent without a usage counter (see NO_USAGE). */
export function computeUsageTruth(agent: string, home: string): UsageTruth | null {
  const counter = COUNTERS[agent];
  if (!counter) return null;
  const c = new Calls();
  counter(home, c);
  return c.result();
}
