/** What the harness needs to know about one agent's CLI, and the context a run gets. */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import type { AgentScript } from "./fake/script.ts";
import type { FakeServer } from "./fake/server.ts";
import type { Protocol } from "./fake/types.ts";

export interface RunContext {
  /** The fake HOME the CLI runs under, and the project folder it works in. */
  home: string;
  dir: string;
  /** The installed CLI's `node_modules/.bin` (its virtual environment's `bin` for a PyPI package, the folder a Go module's command was built into). */
  binDir: string;
  version: string;
  server: FakeServer;
  /** Runs the CLI (or any program) with the run's environment plus `env`, in the project folder. */
  exec(cmd: string, args: string[], opts?: ExecOptions): Promise<ExecResult>;
  /** Starts a CLI that speaks JSON lines on stdin/stdout. */
  lines(cmd: string, args: string[], env?: Record<string, string>): LineSession;
  log(message: string): void;
}

export interface ExecOptions {
  env?: Record<string, string>;
  input?: string;
  timeoutMs?: number;
  /** Fail the run on a non-zero exit (default true). */
  check?: boolean;
}

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface AgentDriver {
  /** Folder name under test/fixtures/clients (cairn's provider name). */
  name: string;
  pkg: string;
  /** Where `pkg` is published (default npm); a PyPI package is installed in a virtual environment of its own. */
  registry?: "npm" | "pypi";
  /** The Python minor version a PyPI package requires (`3.12`), when it does not admit the newest on the machine. */
  python?: string;
  /** The published versions worth installing (default all). */
  versions?(version: string): boolean;
  /** The Go module the CLI is built from (`go install`), for a CLI whose npm package downloads a binary. */
  go?: string;
  bin: string;
  /**
   * The CLI keeps its sessions in the project folder (Crush's `.crush/`): the project is made under HOME, so that
   * what it wrote there is kept with the rest.
   */
  projectInHome?: boolean;
  protocols: Protocol[];
  script: AgentScript;
  /** Paths the server answers outside the protocols (model lists, quota probes). */
  extra?(method: string, path: string, body: unknown): unknown;
  run(ctx: RunContext): Promise<void>;
  /** Plays one prompt in a new session (the planted-secrets conversation, scripts/clients/planted/). */
  once?(ctx: RunContext, prompt: string): Promise<void>;
  /** Which files under HOME are the agent's transcripts (paths relative to HOME). */
  keep(rel: string): boolean;
  /**
   * Files the CLI writes beside its transcripts that are not transcripts (a usage log, a hook log, the marker
   * naming a project's folder), kept so that cairn is tested on them too; truth.json lists them.
   */
  sidecar?(rel: string): boolean;
}

export function makeExec(
  baseEnv: Record<string, string>,
  cwd: string,
  logFile: string,
): (cmd: string, args: string[], opts?: ExecOptions) => Promise<ExecResult> {
  return (cmd, args, opts = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(cmd, args, {
        cwd,
        env: { ...baseEnv, ...opts.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString("utf8");
      });
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString("utf8");
      });
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }, opts.timeoutMs ?? 180_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        // Whatever the CLI left behind in its process group (daemons, language servers) goes with it.
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // nothing left
        }
        appendFileSync(logFile, `$ ${cmd} ${args.join(" ")}\n[exit ${code}]\n${stdout}\n${stderr}\n`);
        if (code !== 0 && opts.check !== false)
          reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}\n${stderr.slice(-2000)}`));
        else resolve({ code, stdout, stderr });
      });
      child.stdin.end(opts.input ?? "");
    });
}

export interface LineSession {
  send(message: unknown): void;
  /** Resolves with the first JSON line from stdout that satisfies `pred` (after the call). */
  waitFor(pred: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Closes stdin and waits for the process to exit. */
  end(): Promise<void>;
}

/** A long-running CLI that speaks JSON lines on stdin/stdout (pi's RPC mode, agent-protocol modes). */
export function spawnLines(
  baseEnv: Record<string, string>,
  cwd: string,
  logFile: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): LineSession {
  const child = spawn(cmd, args, { cwd, env: { ...baseEnv, ...env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let buf = "";
  const waiters: Array<{
    pred: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }> = [];
  appendFileSync(logFile, `$ ${cmd} ${args.join(" ")} (line session)\n`);
  child.stdout.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      const text = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      appendFileSync(logFile, `< ${text.slice(0, 400)}\n`);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      for (const w of [...waiters])
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  child.stderr.on("data", (c: Buffer) => appendFileSync(logFile, `! ${c.toString("utf8")}`));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    send(message) {
      appendFileSync(logFile, `> ${JSON.stringify(message)}\n`);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    waitFor(pred, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${cmd}: timed out waiting for a line`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
    async end() {
      child.stdin.end();
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // gone
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // nothing left in the group
      }
    },
  };
}
