/**
 * Codex's `SessionStart` hook. Codex reads hooks from `$CODEX_HOME/hooks.json` (default `~/.codex`) in Claude
 * Code's shape, timeout in seconds; the hook gets `{ session_id, transcript_path, cwd, hook_event_name, model,
 * permission_mode, source }` on stdin, `source` being startup, resume, clear or compact, and hands the model
 * `hookSpecificOutput.additionalContext` (stdout that looks like JSON but is not that shape is an error).
 *
 * Codex runs a user's hook only once it is trusted: `config.toml` must hold
 * `[hooks.state."<hooks.json path>:session_start:<group>:<handler>"] trusted_hash = "sha256:…"`, the SHA-256 of the
 * hook's normalized identity as compact JSON with sorted keys. So install also appends that one table to
 * `config.toml` (the companion file), after a comment naming cairn, and touches nothing else there.
 */
import { createHash } from "node:crypto";
import { readdirSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { HookCompanion, HookStart, SessionStartHook } from "../agent.ts";
import { isCairnCommand, parseStdinStart, settingsHook } from "../hook-settings.ts";

const SHAPE = { event: "SessionStart", matcher: "startup|clear", timeout: 10 };

/** Codex's home: `$CODEX_HOME` as Codex resolves it (symbolic links followed), else `~/.codex`. */
function codexHome(env: Record<string, string | undefined>, home: string): string {
  const dir = env["CODEX_HOME"];
  if (!dir) return join(home, ".codex");
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

interface Handler {
  type?: string;
  command?: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
}
interface Group {
  matcher?: string;
  hooks?: Handler[];
}

/** Where cairn's handler is in the settings (`hooks.SessionStart[group].hooks[handler]`), or null. */
function cairnHandler(settings: string): { group: number; handler: number; matcher?: string; hook: Handler } | null {
  let groups: unknown;
  try {
    groups = (JSON.parse(settings) as { hooks?: Record<string, unknown> }).hooks?.[SHAPE.event];
  } catch {
    return null;
  }
  if (!Array.isArray(groups)) return null;
  for (const [g, group] of (groups as Group[]).entries()) {
    const at = (group.hooks ?? []).findIndex((h) => isCairnCommand(h.command, "codex"));
    const hook = group.hooks?.[at];
    if (hook) return { group: g, handler: at, ...(group.matcher ? { matcher: group.matcher } : {}), hook };
  }
  return null;
}

/** Keys sorted at every level, as Codex canonicalizes before hashing. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, canonical(obj[k])]),
  );
}

/**
 * The hash Codex trusts a command hook by: its event, matcher and the one handler as Codex normalizes it (timeout
 * defaulting to 600 seconds, `async` false; absent options left out), keys sorted, no spaces.
 */
export function trustHash(matcher: string | undefined, hook: Handler): string {
  const handler = {
    type: "command",
    command: hook.command ?? "",
    timeout: Math.max(1, hook.timeout ?? 600),
    async: hook.async === true,
    ...(typeof hook.statusMessage === "string" ? { statusMessage: hook.statusMessage } : {}),
  };
  const identity = { event_name: "session_start", ...(matcher ? { matcher } : {}), hooks: [handler] };
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(canonical(identity)))
    .digest("hex")}`;
}

const MARK =
  "# cairn hooks: Codex runs cairn's session-start hook in hooks.json only with this trust entry (`cairn hooks remove codex` takes it out)";
/** cairn's trust table as install writes it (a TOML basic string is JSON's, for these characters). */
const BLOCK = /\n?# cairn hooks: [^\n]*\n\[hooks\.state\.[^\n]*\]\ntrusted_hash = "[^"\n]*"\n?/g;

/** The trust table for cairn's hook in `settings` (the hooks.json at `settingsPath`), or null if it has none. */
function trustBlock(settings: string, settingsPath: string): { key: string; text: string } | null {
  const at = cairnHandler(settings);
  if (!at) return null;
  const key = `${settingsPath}:session_start:${at.group}:${at.handler}`;
  const hash = trustHash(at.matcher, at.hook);
  return { key, text: `${MARK}\n[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = ${JSON.stringify(hash)}\n` };
}

function withoutBlocks(text: string): string {
  // The newline before the block ends the line above it unless that line is blank (the gap install left).
  return text.replace(BLOCK, (block: string, offset: number) =>
    block.startsWith("\n") && offset > 0 && text[offset - 1] !== "\n" ? "\n" : "",
  );
}

export const codexTrust: HookCompanion = {
  path: (env, home) => join(codexHome(env, home), "config.toml"),
  install(text, settings, settingsPath) {
    const block = trustBlock(settings, settingsPath);
    const current = text ?? "";
    if (!block) return withoutBlocks(current);
    if (current.includes(block.text)) return current;
    const base = withoutBlocks(current);
    const clash = tomlClash(base, ["hooks", "state", block.key]);
    if (clash)
      throw new Error(
        `${join(dirname(settingsPath), "config.toml")} already defines ${clash}: trust cairn's hook in Codex's /hooks`,
      );
    const gap = base === "" || base.endsWith("\n\n") ? "" : base.endsWith("\n") ? "\n" : "\n\n";
    return `${base}${gap}${block.text}`;
  },
  remove(text) {
    const next = withoutBlocks(text);
    return next === text ? null : next;
  },
  installed(text, settings, settingsPath) {
    const block = trustBlock(settings, settingsPath);
    if (!block || text === null) return false;
    return text.includes(block.text);
  },
};

export const codexHook: SessionStartHook = {
  ...settingsHook("codex", SHAPE, {
    settingsPath: (env, home) => join(codexHome(env, home), "hooks.json"),
    parseInput: (text) => parseStdinStart(text, ["resume", "compact"]),
    output: (context) =>
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } })}\n`,
  }),
  companion: codexTrust,
  /**
   * Codex keeps every project's rollouts together by day (`sessions/YYYY/MM/DD/rollout-….jsonl`): the newest day
   * folders present, this session's among them; the index keeps those of this folder.
   */
  earlier(start: HookStart, env, home) {
    const sessions = start.transcriptPath
      ? dirname(dirname(dirname(dirname(start.transcriptPath))))
      : join(codexHome(env, home), "sessions");
    return { dirs: newestDays(sessions, 7), match: (name: string) => /^rollout-.*\.jsonl$/.test(name) };
  },
};

/** The newest `count` day folders under `sessions` (`YYYY/MM/DD`), newest first, reading only the folders needed. */
function newestDays(sessions: string, count: number): string[] {
  const out: string[] = [];
  const down = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => /^\d+$/.test(n))
        .sort()
        .reverse();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= count) return;
      if (depth === 2) out.push(join(dir, name));
      else down(join(dir, name), depth + 1);
    }
  };
  down(sessions, 0);
  return out;
}

/**
 * The first definition in a TOML document that a `[path]` table header appended at its end would clash with: the
 * table itself, a key above it holding an inline table, or a key inside it. Read line by line, conservatively
 * (a definition the scan cannot read is not a clash; Codex would have refused the file already).
 */
export function tomlClash(text: string, path: readonly string[]): string | null {
  let table: string[] = [];
  let inString: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (inString) {
      if (line.split(inString).length % 2 === 0) inString = null;
      continue;
    }
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[\[?(.*?)\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      table = dottedKey(header[1] ?? "") ?? [];
      if (startsWith(table, path)) return `[${table.join(".")}]`;
      continue;
    }
    const eq = keyBefore(line);
    if (eq) {
      const full = [...table, ...eq.key];
      if (startsWith(path, full) || startsWith(full, path)) return full.join(".");
      const rest = line.slice(eq.end).trimStart();
      for (const quote of ['"""', "'''"])
        if (rest.startsWith(quote) && rest.split(quote).length === 2) inString = quote;
    }
  }
  return null;
}

function startsWith(a: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= a.length && prefix.every((p, i) => a[i] === p);
}

/** A key-value line's dotted key and where its value starts, or null. */
function keyBefore(line: string): { key: string[]; end: number } | null {
  for (let i = 0, quote = ""; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "=") {
      const key = dottedKey(line.slice(0, i));
      return key ? { key, end: i + 1 } : null;
    }
  }
  return null;
}

/** `a."b.c".'d'` → [a, b.c, d], or null when it is not a key. */
function dottedKey(text: string): string[] | null {
  const parts: string[] = [];
  const re = /\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(\.|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return null;
    let part = m[1] ?? m[3];
    if (part === undefined) {
      try {
        part = JSON.parse(`"${m[2] ?? ""}"`) as string;
      } catch {
        return null;
      }
    }
    parts.push(part);
    at = re.lastIndex;
    if (m[4] === "") break;
  }
  return parts.length > 0 ? parts : null;
}
