/**
 * `cairn mcp` under the real Claude Code, Codex and Gemini CLIs, installed from npm as `npm run clients:refresh`
 * installs them (scripts/clients/install.ts, cached in ~/.cache/cairn-clients): each is configured with cairn as an
 * MCP server (its own flag or config file), asked by the fake model of scripts/clients/fake/ to call a cairn tool,
 * and left to exit on its own. Then the client's debug log must show no forced kill of the server, and the server
 * must have exited by itself, within a second of being told to stop (stdin closed, SIGINT or SIGTERM), as
 * test/mcp/watch-server.ts, which the client starts in its place, reports. Before issue 34 Claude Code logged
 * "SIGINT failed, sending SIGTERM … SIGTERM failed, sending SIGKILL" at every exit.
 *
 * The clients are pinned to versions checked by hand (newer ones change how they offer MCP tools to the model);
 * a client that cannot be installed fails the test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claude as claudeDriver } from "../../scripts/clients/agents/claude.ts";
import { codex as codexDriver } from "../../scripts/clients/agents/codex.ts";
import { gemini as geminiDriver, geminiSide } from "../../scripts/clients/agents/gemini.ts";
import type { AgentDriver } from "../../scripts/clients/driver.ts";
import { startFakeServer } from "../../scripts/clients/fake/server.ts";
import type { Conversation, Reply, ToolCallReply } from "../../scripts/clients/fake/types.ts";
import { installClient } from "../../scripts/clients/install.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { CLI } from "../helpers/cli.ts";

const PROMPT = "MCP-CHECK: list the work threads with cairn.";
const WATCH = join(import.meta.dirname, "watch-server.ts");

interface Run {
  /** The client's HOME, its project folder, and the fake model's address. */
  home: string;
  dir: string;
  model: string;
  /** The client's `node_modules/.bin`. */
  bin: string;
  /** The MCP server's command line, as the client is to start it. */
  server: { command: string; args: string[] };
}

interface RealClient {
  driver: AgentDriver;
  version: string;
  /** The call of cairn's list_threads, once the client offers it to the model. */
  call(conv: Conversation): ToolCallReply | null;
  /** Configures cairn as the client's MCP server and runs one prompt; resolves with its debug log. */
  run(
    r: Run,
    start: (command: string, args: string[], env: Record<string, string>) => Promise<string>,
  ): Promise<string>;
  /** What the client logs when it has to kill a server (Codex logs only a kill that failed). */
  forcedKill: RegExp;
}

const CLIENTS: RealClient[] = [
  {
    driver: claudeDriver,
    version: "2.1.332",
    call: (conv) =>
      conv.tools.some((t) => t.name === "mcp__cairn__list_threads") ? mcp("mcp__cairn__list_threads") : null,
    async run(r, start) {
      writeFileSync(join(r.dir, "mcp.json"), JSON.stringify({ mcpServers: { cairn: r.server } }));
      const log = join(r.home, "claude-debug.log");
      await start(
        join(r.bin, "claude"),
        ["-p", PROMPT, "--mcp-config", join(r.dir, "mcp.json"), "--strict-mcp-config"].concat([
          "--dangerously-skip-permissions",
          "--debug-file",
          log,
        ]),
        {
          ANTHROPIC_BASE_URL: r.model,
          ANTHROPIC_API_KEY: "dummy",
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          IS_SANDBOX: "1",
          // MCP tools offered to the model at once, not behind a tool search the fake model does not play.
          ENABLE_TOOL_SEARCH: "false",
        },
      );
      return readFileSync(log, "utf8");
    },
    forcedKill: /SIGINT failed|SIGTERM failed|SIGKILL/,
  },
  {
    driver: codexDriver,
    version: "0.171.0",
    // Codex lists a server's tools in one namespace tool, `mcp__<server>`.
    call: (conv) =>
      conv.tools.some((t) => t.name === "mcp__cairn") ? { ...mcp("list_threads"), namespace: "mcp__cairn" } : null,
    async run(r, start) {
      const codexHome = join(r.home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, "config.toml"),
        [
          // A model Codex has no profile for: it lists MCP tools to the model instead of deferring them.
          'model = "cairn-fake-model"',
          'model_provider = "fake"',
          "[model_providers.fake]",
          'name = "fake"',
          `base_url = "${r.model}/v1"`,
          'wire_api = "responses"',
          'env_key = "FAKE_API_KEY"',
          "[mcp_servers.cairn]",
          `command = ${JSON.stringify(r.server.command)}`,
          `args = ${JSON.stringify(r.server.args)}`,
          "",
        ].join("\n"),
      );
      const flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"];
      return start(join(r.bin, "codex"), ["exec", ...flags, PROMPT], {
        CODEX_HOME: codexHome,
        FAKE_API_KEY: "dummy",
        RUST_LOG: "debug",
      });
    },
    forcedKill: /(terminate|kill) MCP (process group|stdio server)|MCP server process on drop/i,
  },
  {
    driver: geminiDriver,
    version: "0.61.0",
    call: (conv) =>
      conv.tools.some((t) => t.name === "mcp_cairn_list_threads") ? mcp("mcp_cairn_list_threads") : null,
    async run(r, start) {
      mkdirSync(join(r.home, ".gemini"), { recursive: true });
      writeFileSync(
        join(r.home, ".gemini", "settings.json"),
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          mcpServers: { cairn: { ...r.server, trust: true } },
        }),
      );
      return start(join(r.bin, "gemini"), ["-p", PROMPT, "--yolo", "--debug"], {
        GOOGLE_GEMINI_BASE_URL: r.model,
        GEMINI_API_KEY: "dummy",
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      });
    },
    forcedKill: /SIGKILL|force.?kill/i,
  },
];

function mcp(name: string): ToolCallReply {
  return { name, args: {} };
}

const root = mkdtempSync(join(tmpdir(), "cairn-mcp-clients-"));
const db = join(root, "cairn.db");
/** What each watch-server.ts reports (its events, and its server's exit or null), by the client that started it. */
type Watched = { events: string[]; exit: Record<string, unknown> | null };
const watched = new Map<string, Promise<Watched>[]>();
let reportServer: Server;
let reportPort = 0;

beforeAll(async () => {
  openStore(db).close();
  reportServer = createServer((socket) => {
    const events: string[] = [];
    let exit: Record<string, unknown> | null = null;
    let buffered = "";
    let done = (_w: Watched) => {};
    const ended = new Promise<Watched>((resolve) => {
      done = resolve;
    });
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const event = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
        buffered = buffered.slice(nl + 1);
        if (event["event"] === "started") {
          const name = String(event["name"]);
          watched.set(name, [...(watched.get(name) ?? []), ended]);
        } else if (event["event"] === "exit") exit = event;
        else events.push(String(event["event"]));
      }
    });
    // Closed without an exit report: the watcher was killed, so its server's exit was never seen.
    socket.on("close", () => done({ events, exit }));
  });
  await new Promise<void>((resolve) => reportServer.listen(0, "127.0.0.1", resolve));
  reportPort = (reportServer.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => reportServer?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe("cairn mcp under real MCP clients", () => {
  for (const client of CLIENTS) {
    const name = client.driver.name;
    it(`${name} ${client.version}: calls a cairn tool, and at its exit cairn stops by itself within a second`, async () => {
      // Installed (or found in the cache) here, not skipped: CI reaches the npm registry.
      const installed = installClient(name, client.driver.pkg, client.version);
      const home = join(root, name, "home");
      const dir = join(root, name, "project");
      mkdirSync(home, { recursive: true });
      mkdirSync(dir, { recursive: true });
      const results: string[] = [];
      const model = await startFakeServer({
        protocols: client.driver.protocols,
        dir,
        log: join(root, name, "requests.jsonl"),
        extra: client.driver.extra?.bind(client.driver),
        agent: { subagents: false, side: (conv, path, body) => brain(client, conv, path, body, results) },
      });
      let log: string;
      try {
        log = await client.run(
          {
            home,
            dir,
            model: model.url,
            bin: join(installed.prefix, "node_modules", ".bin"),
            server: {
              command: process.execPath,
              args: [WATCH, String(reportPort), name, process.execPath, CLI, "mcp", "--db", db],
            },
          },
          (command, args, env) => runClient(command, args, { ...clientEnv(root, name, installed.prefix), ...env }, dir),
        );
      } finally {
        await model.close();
      }

      // cairn's answer reached the model: its text, or its structured content (Codex and Gemini pass that on).
      expect(results.join("\n")).toMatch(/no threads|"threads":\[\]/);
      // Every server the client started (a client may start more than one) stopped by itself: exit code 0, within a
      // second of the first sign to stop (stdin closed, SIGINT or SIGTERM), as its watcher measured it.
      const servers = await Promise.all(watched.get(name) ?? []);
      expect(servers.length).toBeGreaterThan(0);
      for (const { events, exit } of servers) {
        expect(exit, `cairn mcp was killed after ${JSON.stringify(events)}`).not.toBeNull();
        expect(exit).toMatchObject({ code: 0, signal: null });
        expect(events.length).toBeGreaterThan(0);
        expect(Number(exit!["afterMs"])).toBeLessThanOrEqual(1000);
      }
      const kills = log.split("\n").filter((line) => /cairn|MCP/i.test(line) && client.forcedKill.test(line));
      expect(kills).toEqual([]);
    }, 300_000);
  }
});

/** The fake model: lists cairn's threads once the client offers the tool, then says it is done. */
function brain(client: RealClient, conv: Conversation, path: string, body: unknown, results: string[]): Reply {
  const side = client.driver === geminiDriver ? geminiSide(conv, path, body) : null;
  if (side) return side;
  if (!conv.msgs.some((m) => m.role === "user" && m.text.includes("MCP-CHECK"))) return { text: "ok" };
  const answered = conv.msgs.filter((m) => m.role === "tool");
  if (answered.length > 0) {
    results.push(...answered.map((m) => m.text));
    return { text: "Listed the threads." };
  }
  const call = client.call(conv);
  return call ? { call } : { text: `no cairn tool among ${conv.tools.map((t) => t.name).join(", ")}` };
}

function clientEnv(root: string, name: string, prefix: string): Record<string, string> {
  const home = join(root, name, "home");
  const tmp = join(root, name, "tmp");
  mkdirSync(tmp, { recursive: true });
  return {
    HOME: home,
    PATH: [join(prefix, "node_modules", ".bin"), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(
      ":",
    ),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
  };
}

/** Runs the client to its own exit; resolves with its stdout and stderr (where Codex and Gemini log). */
function runClient(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    // A client that hangs is stopped before the test's own timeout, so that it does not outlive the test.
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with ${code}:\n${out.slice(-3000)}`));
    });
  });
}
