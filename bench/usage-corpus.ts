/**
 * A corpus for comparing usage reports: Claude Code and Codex transcripts cut from the real fixtures, each file a
 * window of a real session moved to its own days, its ids made fresh and its token counts scaled, in each agent's
 * own folder layout. Some Claude files are resumed sessions (their first lines copy another file's messages, ids
 * and request ids kept, under the new session's id) and some Codex files are forks (their first records copy
 * another rollout's as they were): copies a report must count once.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { realFixturesDir } from "./corpus.ts";

interface Source {
  provider: "claude" | "codex";
  lines: string[];
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function hex(rand: () => number, len: number): string {
  let out = "";
  while (out.length < len) out += Math.floor(rand() * 16).toString(16);
  return out;
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function sources(): Source[] {
  const read = (p: string) => readFileSync(join(realFixturesDir(), p), "utf8").split("\n").filter(Boolean);
  const codex = "localpush__rollout-2026-02-23T12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl";
  return [
    // Claude Code on the Anthropic API: every assistant line has its request id.
    { provider: "claude", lines: read("claude/episodic-memory__large-conversation.jsonl") },
    { provider: "codex", lines: read(`codex/${codex}`) },
  ];
}

const TOKEN_FIELD =
  /"(input_tokens|output_tokens|cache_creation_input_tokens|cache_read_input_tokens|ephemeral_5m_input_tokens|ephemeral_1h_input_tokens|cached_input_tokens|reasoning_output_tokens|total_tokens)":(\d+)/g;
const ID = /\b(msg|req|toolu|call)_([A-Za-z0-9]{8,40})/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** One line moved by `shiftMs`, its ids renamed through `names` and its counts times `factor`. */
function rewrite(
  line: string,
  shiftMs: number,
  factor: number,
  names: Map<string, string>,
  rand: () => number,
): string {
  return line
    .replace(/"timestamp":"([^"]+)"/g, (m, t: string) => {
      const ms = Date.parse(t);
      return Number.isNaN(ms) ? m : `"timestamp":"${new Date(ms + shiftMs).toISOString()}"`;
    })
    .replace(TOKEN_FIELD, (_m, k: string, v: string) => `"${k}":${Number(v) * factor}`)
    .replace(ID, (m, p: string, v: string) => {
      if (!names.has(m)) names.set(m, `${p}_${hex(rand, v.length)}`);
      return names.get(m)!;
    })
    .replace(UUID, (u) => {
      if (!names.has(u)) names.set(u, uuid(rand));
      return names.get(u)!;
    });
}

/** A window of the rollout moved to begin minutes after the last line so far, with ids of its own. */
function laterTurns(source: string[], so: string[], size: number, factor: number, rand: () => number): string[] {
  const start = 1 + Math.floor(rand() * Math.max(1, source.length - size - 1));
  const window = source.slice(start, start + size);
  const times = (ls: string[]) => ls.map(timeOf).filter((t) => !Number.isNaN(t));
  const shift = Math.max(...times(so)) + 600_000 + Math.floor(rand() * 3_600_000) - Math.min(...times(window));
  return window.map((l) => rewrite(l, shift, factor, new Map(), rand));
}

function timeOf(line: string): number {
  return Date.parse(/"timestamp":"([^"]+)"/.exec(line)?.[1] ?? "");
}

export interface UsageCorpus {
  /** HOME-like folder: `.claude/projects/...` and `.codex/sessions/...`. */
  home: string;
  files: number;
  bytes: number;
  /** Codex sessions that begin with another rollout's records. */
  forks: string[];
}

/** Writes `count` transcripts under `home` (emptied first), deterministic for a seed. */
export function writeUsageCorpus(home: string, count: number, seed = 7): UsageCorpus {
  rmSync(home, { recursive: true, force: true });
  const rand = lcg(seed);
  const src = sources();
  const written: Array<{ provider: string; lines: string[]; session: string }> = [];
  let bytes = 0;
  const forks: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = src[i % src.length]!;
    const session = uuid(rand);
    const names = new Map<string, string>();
    const firstLine = s.provider === "codex" ? 1 : 0;
    const size = 60 + Math.floor(rand() * 240);
    const start = firstLine + Math.floor(rand() * Math.max(1, s.lines.length - size - firstLine));
    // To the millisecond: two windows of one session never land on the same instants.
    let shift = Math.floor(rand() * 90 * 86_400_000);
    const factor = 1 + Math.floor(rand() * 3);
    const window = s.lines.slice(start, start + size);
    let lines: string[];
    if (s.provider === "codex") {
      const earlier = written.filter((w) => w.provider === "codex");
      // A fork: the parent's records as they were, then its own, made after them.
      const fork = earlier.length > 0 && rand() < 0.1 ? earlier[Math.floor(rand() * earlier.length)]! : null;
      const copied = fork ? fork.lines.slice(1, 1 + Math.floor(fork.lines.length / 2)) : [];
      if (fork) {
        const after = Math.max(...copied.map(timeOf).filter((t) => !Number.isNaN(t))) + 3_600_000;
        shift = Math.max(shift, after - Math.min(...window.map(timeOf).filter((t) => !Number.isNaN(t))));
        forks.push(session);
      }
      const meta = JSON.parse(rewrite(s.lines[0]!, 0, 1, names, rand)) as {
        timestamp: string;
        payload: Record<string, unknown>;
      };
      meta.payload["id"] = session;
      meta.timestamp = meta.payload["timestamp"] = new Date(
        Date.parse(rewrite(window[0]!, shift, 1, new Map(), rand).match(/"timestamp":"([^"]+)"/)?.[1] ?? "") - 60_000,
      ).toISOString();
      // The turn's settings (its model) as the rollout stated them before the window.
      const context = s.lines.slice(0, start).findLast((l) => l.includes('"type":"turn_context"'));
      const head = [JSON.stringify(meta), ...(context ? [rewrite(context, shift, 1, names, rand)] : [])];
      lines = [...head, ...copied, ...window.map((l) => rewrite(l, shift, factor, names, rand))];
      // A long session: more turns after the first, each cut from elsewhere in the real rollout.
      for (let more = Math.floor(rand() * 6); more > 0; more--)
        lines.push(...laterTurns(s.lines, lines, size, factor, rand));
    } else {
      const sessionOf = (l: string) => l.replace(/"sessionId":"[^"]+"/, `"sessionId":"${session}"`);
      const earlier = written.filter((w) => w.provider === "claude");
      // A resumed session: the earlier session's messages copied under this session's id.
      const resumed = earlier.length > 0 && rand() < 0.15 ? earlier[Math.floor(rand() * earlier.length)]! : null;
      const body = window.map((l) => rewrite(l, shift, factor, names, rand));
      lines = [...(resumed ? resumed.lines.slice(0, Math.floor(resumed.lines.length / 2)) : []), ...body].map(
        sessionOf,
      );
    }
    const day = new Date(Date.UTC(2026, 0, 1) + shift).toISOString().slice(0, 10);
    const path =
      s.provider === "claude"
        ? join(home, ".claude/projects", `-work-p${i % 12}`, `${session}.jsonl`)
        : join(home, ".codex/sessions", day.replace(/-/g, "/"), `rollout-${day}T00-00-00-${session}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    const text = `${lines.join("\n")}\n`;
    writeFileSync(path, text);
    bytes += Buffer.byteLength(text);
    written.push({ provider: s.provider, lines, session });
  }
  return { home, files: count, bytes, forks };
}
