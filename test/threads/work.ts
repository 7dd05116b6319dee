/**
 * Small synthetic sessions for the thread tests, written in each agent's own format (Claude Code, Codex, pi) and
 * indexed into a temp database: the same steps (read or edit a file, run a check, fail a command) become the same
 * entities whichever agent wrote them, which is what threads join on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";

export type Agent = "claude" | "codex" | "pi";

type Step =
  | { kind: "prompt"; text: string }
  | { kind: "read"; path: string }
  | { kind: "edit"; path: string }
  | { kind: "run"; command: string; output: string; exit: number };

export interface WorkOptions {
  cwd?: string;
  branch?: string;
  /** ISO start time; each step is one second later. */
  start: string;
  /** For a Claude subagent or a pi fork: the parent session's id. */
  parent?: string;
}

export class Work {
  readonly steps: Step[] = [];
  readonly agent: Agent;
  readonly id: string;
  readonly opts: WorkOptions;
  constructor(agent: Agent, id: string, opts: WorkOptions) {
    this.agent = agent;
    this.id = id;
    this.opts = opts;
  }

  get cwd(): string {
    return this.opts.cwd ?? "/w/app";
  }

  prompt(text: string): this {
    this.steps.push({ kind: "prompt", text });
    return this;
  }
  /** Paths relative to the working directory. */
  read(...paths: string[]): this {
    for (const path of paths) this.steps.push({ kind: "read", path });
    return this;
  }
  edit(...paths: string[]): this {
    for (const path of paths) this.steps.push({ kind: "edit", path });
    return this;
  }
  run(command: string, output: string, exit = 0): this {
    this.steps.push({ kind: "run", command, output, exit });
    return this;
  }
  /** A vitest run with this many failures. */
  test(failed: number): this {
    const summary = failed > 0 ? `Tests  ${failed} failed | 3 passed (${failed + 3})` : "Tests  3 passed (3)";
    const detail = failed > 0 ? " FAIL  test/auth.test.ts > refreshes the token\n" : "";
    return this.run("npx vitest run", `${detail}\n Test Files  1 passed (1)\n      ${summary}\n`, failed > 0 ? 1 : 0);
  }
  /** A type error in a file, as tsc reports it. */
  typeError(file: string, code = "TS2322"): this {
    return this.run(
      "npx tsc --noEmit",
      `${file}(12,5): error ${code}: Type 'string' is not assignable to type 'number'.`,
      2,
    );
  }

  time(i: number): string {
    return new Date(Date.parse(this.opts.start) + i * 1000).toISOString();
  }

  /** Where the agent keeps this transcript, relative to the index root. */
  file(): string {
    switch (this.agent) {
      case "claude":
        return this.opts.parent
          ? `claude/-w-app/${this.opts.parent}/subagents/agent-${this.id}.jsonl`
          : `claude/-w-app/${this.id}.jsonl`;
      case "codex":
        return `codex/2026/01/01/rollout-2026-01-01T00-00-00-${this.id}.jsonl`;
      case "pi":
        return `pi/--w-app--/2026-01-01T00-00-00-000Z_${this.id}.jsonl`;
    }
  }

  text(): string {
    const lines = this.agent === "claude" ? this.claude() : this.agent === "codex" ? this.codex() : this.pi();
    return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  }

  private abs(path: string): string {
    return path.startsWith("/") ? path : `${this.cwd}/${path}`;
  }

  private claude(): object[] {
    const sid = this.opts.parent ?? this.id;
    const base = {
      sessionId: sid,
      cwd: this.cwd,
      version: "2.1.7",
      gitBranch: this.opts.branch ?? "",
      isSidechain: this.opts.parent !== undefined,
      userType: "external",
      ...(this.opts.parent ? { agentId: this.id } : {}),
    };
    const out: object[] = [];
    let parent: string | null = null;
    let n = 0;
    const line = (type: string, message: object) => {
      const uuid = `${this.id.slice(0, 8)}-${n}`;
      out.push({ ...base, type, uuid, parentUuid: parent, timestamp: this.time(n), message });
      parent = uuid;
      n++;
    };
    const tool = (name: string, input: object, result: string, isError: boolean) => {
      const id = `toolu_${this.id.slice(0, 6)}${n}`;
      line("assistant", {
        id: `msg_${this.id.slice(0, 6)}${n}`,
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "tool_use", id, name, input }],
      });
      line("user", {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: result, ...(isError ? { is_error: true } : {}) }],
      });
    };
    for (const s of this.steps) {
      if (s.kind === "prompt") line("user", { role: "user", content: s.text });
      else if (s.kind === "read") tool("Read", { file_path: this.abs(s.path) }, "1\texport const x = 1;", false);
      else if (s.kind === "edit")
        tool("Edit", { file_path: this.abs(s.path), old_string: "a", new_string: "b" }, "The file was updated", false);
      else tool("Bash", { command: s.command }, s.exit ? `Exit code ${s.exit}\n${s.output}` : s.output, s.exit !== 0);
    }
    return out;
  }

  private codex(): object[] {
    const env = (i: number, type: string, payload: object) => ({ timestamp: this.time(i), type, payload });
    const out: object[] = [
      env(0, "session_meta", {
        id: this.id,
        timestamp: this.time(0),
        cwd: this.cwd,
        originator: "codex_cli_rs",
        cli_version: "0.70.0",
        source: "cli",
        ...(this.opts.branch ? { git: { branch: this.opts.branch } } : {}),
      }),
    ];
    let n = 1;
    const shell = (command: string, output: string, exit: number) => {
      const call = `call_${this.id.slice(0, 6)}${n}`;
      out.push(
        env(n++, "response_item", {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({ command: ["bash", "-lc", command] }),
          call_id: call,
        }),
      );
      out.push(
        env(n++, "response_item", {
          type: "function_call_output",
          call_id: call,
          output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.1 } }),
        }),
      );
    };
    for (const s of this.steps) {
      if (s.kind === "prompt") {
        out.push(
          env(n, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text: s.text }] }),
        );
        out.push(env(n++, "event_msg", { type: "user_message", message: s.text, images: [] }));
      } else if (s.kind === "read") shell(`cat ${s.path}`, "export const x = 1;", 0);
      else if (s.kind === "edit") shell(`sed -i 's/a/b/' ${s.path}`, "", 0);
      else shell(s.command, s.output, s.exit);
    }
    return out;
  }

  private pi(): object[] {
    // For pi, `parent` makes a fork: its header names the parent session's file.
    const fork = this.opts.parent
      ? { parentSession: `/h/.pi/agent/sessions/--w-app--/2026-01-01T00-00-00-000Z_${this.opts.parent}.jsonl` }
      : {};
    const out: object[] = [
      { type: "session", version: 3, id: this.id, timestamp: this.time(0), cwd: this.cwd, ...fork },
    ];
    let parent: string | null = null;
    let n = 1;
    const message = (message: object) => {
      const id = `${this.id.slice(0, 4)}e${n}`;
      out.push({ type: "message", id, parentId: parent, timestamp: this.time(n++), message });
      parent = id;
    };
    const tool = (name: string, args: object, result: string, isError: boolean) => {
      const callId = `c${n}`;
      message({
        role: "assistant",
        content: [{ type: "toolCall", id: callId, name, arguments: args }],
        stopReason: "toolUse",
      });
      message({
        role: "toolResult",
        toolCallId: callId,
        toolName: name,
        content: [{ type: "text", text: result }],
        isError,
      });
    };
    for (const s of this.steps) {
      if (s.kind === "prompt") message({ role: "user", content: [{ type: "text", text: s.text }], timestamp: n });
      else if (s.kind === "read") tool("read", { path: this.abs(s.path) }, "export const x = 1;", false);
      else if (s.kind === "edit")
        tool("edit", { path: this.abs(s.path), oldText: "a", newText: "b" }, "Successfully replaced text.", false);
      else {
        const text = s.exit ? `${s.output}\n\nCommand exited with code ${s.exit}` : s.output;
        tool("bash", { command: s.command }, text, s.exit !== 0);
      }
    }
    return out;
  }
}

export interface WorkIndex {
  dir: string;
  db: string;
  store: Store;
  /** Writes more sessions and indexes them into the same store. */
  add(...work: Work[]): void;
  close(): void;
}

/** Writes the sessions under a temp folder, as the agents lay them out, and indexes them into a temp database. */
export function indexWork(...work: Work[]): WorkIndex {
  const dir = mkdtempSync(join(tmpdir(), "cairn-threads-"));
  const root = join(dir, "transcripts");
  const write = (list: Work[]) => writeWork(root, ...list);
  write(work);
  const db = join(dir, "cairn.db");
  const store = openStore(db);
  indexPaths({ store, paths: [root] });
  return {
    dir,
    db,
    store,
    add(...more) {
      write(more);
      indexPaths({ store, paths: [root] });
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes each session's transcript under `root` where its agent would keep it. */
export function writeWork(root: string, ...work: Work[]): void {
  for (const w of work) {
    const path = join(root, w.file());
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, w.text());
  }
}

/** Session ids shaped like each agent's (UUIDs), distinct per name. */
export function sid(name: string): string {
  const hex = Buffer.from(name.padEnd(16, "0")).toString("hex").slice(0, 32).padEnd(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
