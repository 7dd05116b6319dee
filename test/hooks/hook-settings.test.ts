import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readState, skipReason } from "../../src/app/hook-state.ts";
import { hookAgents } from "../../src/app/hooks.ts";
import { install, remove } from "../../src/hooks/manage.ts";
import { runHook } from "../../src/hooks/run.ts";
import { claudeHook } from "../../src/readers/claude/hook.ts";
import { cairn } from "../helpers/cli.ts";

const CMD = "/usr/bin/node /opt/cairn/bin/cairn.js hooks run claude";

describe("Claude Code's settings with cairn's hook", () => {
  it("adds one group for startup and clear and one at the end, keeps everything else, and is idempotent", () => {
    const user =
      '{\n\t"model": "opus",\n\t"hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "true" } ] } ] }\n}';
    const once = claudeHook.install(user, CMD);
    expect(claudeHook.install(once, CMD)).toBe(once);
    const parsed = JSON.parse(once);
    expect(parsed.model).toBe("opus");
    expect(parsed.hooks.SessionStart).toEqual([
      { hooks: [{ type: "command", command: "true" }] },
      { matcher: "startup|clear", hooks: [{ type: "command", command: CMD, timeout: 10 }] },
    ]);
    // At the session's end, cairn indexes it: the same command's `index` verb.
    expect(parsed.hooks.SessionEnd).toEqual([
      { hooks: [{ type: "command", command: CMD.replace("hooks run", "hooks index"), timeout: 10 }] },
    ]);
    expect(once).toMatch(/^\{\n\t"model"/);
    expect(once.endsWith("\n")).toBe(false);
    expect(claudeHook.installed(once)).toBe(true);
    expect(claudeHook.installed(user)).toBe(false);
  });

  it("takes out only cairn's entry, dropping what it alone added", () => {
    const fresh = claudeHook.install(null, CMD);
    expect(JSON.parse(claudeHook.remove(fresh) ?? "")).toEqual({});
    const theirs = '{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"echo bye"}]}]}}';
    expect(JSON.parse(claudeHook.remove(claudeHook.install(theirs, CMD)) ?? "")).toEqual(JSON.parse(theirs));
    expect(claudeHook.remove('{"hooks":{}}')).toBeNull();
    // Another install of cairn (another path) is still cairn's.
    const other = claudeHook.install(null, "node /elsewhere/bin/cairn.js hooks run claude");
    expect(claudeHook.installed(other)).toBe(true);
  });

  it("hands the brief to the model as SessionStart additionalContext", () => {
    expect(JSON.parse(claudeHook.output("brief"))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "brief" },
    });
    const start = claudeHook.parseInput(
      '{"session_id":"s1","transcript_path":"/p/s1.jsonl","cwd":"/w","source":"resume"}',
    );
    expect(start).toEqual({
      cwd: "/w",
      sessionId: "s1",
      transcriptPath: "/p/s1.jsonl",
      source: "resume",
      continuation: true,
    });
  });
});

describe("install and remove on disk", () => {
  let root = "";
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const setup = () => {
    root = mkdtempSync(join(tmpdir(), "cairn-hooks-unit-"));
    return { HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") };
  };
  const agents = () => hookAgents().then((all) => all.filter((a) => a.provider === "claude"));

  it("restores the file byte for byte, or removes a file it created", async () => {
    const env = setup();
    const path = join(env.HOME, ".claude", "settings.json");
    install(env, await agents(), () => CMD);
    remove(env, await agents());
    expect(() => readFileSync(path)).toThrow();

    mkdirSync(join(env.HOME, ".claude"), { recursive: true });
    writeFileSync(path, '{ "theme": "dark" }');
    install(env, await agents(), () => CMD);
    install(env, await agents(), () => CMD);
    expect(remove(env, await agents())[0]?.did).toBe("restored");
    expect(readFileSync(path, "utf8")).toBe('{ "theme": "dark" }');
  });

  it("keeps the user's later edits and takes out only cairn's entry", async () => {
    const env = setup();
    const path = join(env.HOME, ".claude", "settings.json");
    install(env, await agents(), () => CMD);
    const edited = JSON.parse(readFileSync(path, "utf8"));
    edited.theme = "light";
    writeFileSync(path, JSON.stringify(edited, null, 2));
    expect(remove(env, await agents())[0]?.did).toBe("removed");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ theme: "light" });
  });
});

describe("skipReason", () => {
  const start = { cwd: "/work/project", continuation: false };
  const off = (...optOut: string[]) => ({ optOut, optIn: [] });
  it("skips a continuation, CAIRN_HOOKS=off, and a folder turned off or below one", () => {
    expect(skipReason(start, {}, off())).toBeNull();
    expect(skipReason({ ...start, continuation: true, source: "resume" }, {}, off())).toMatch(/resume session/);
    expect(skipReason(start, { CAIRN_HOOKS: "off" }, off())).toMatch(/CAIRN_HOOKS=off/);
    expect(skipReason(start, {}, off("/work"))).toMatch(/opted out/);
    expect(skipReason(start, {}, off("/work/proj"))).toBeNull();
  });
  it("honours a .cairn-hooks-off file in the project or above it", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-hooks-off-"));
    try {
      mkdirSync(join(root, "a", "b"), { recursive: true });
      writeFileSync(join(root, "a", ".cairn-hooks-off"), "");
      expect(skipReason({ cwd: join(root, "a", "b"), continuation: false }, {}, off())).toMatch(/\.cairn-hooks-off/);
      expect(skipReason({ cwd: root, continuation: false }, {}, off())).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it("in opt-in mode briefs only folders turned on or holding a .cairn-hooks-on file, and off still wins", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-hooks-on-"));
    try {
      mkdirSync(join(root, "team", "app"), { recursive: true });
      mkdirSync(join(root, "mine"));
      writeFileSync(join(root, "team", ".cairn-hooks-on"), "");
      const only = (optIn: string[], optOut: string[] = []) => ({ optInOnly: true, optIn, optOut });
      const at = (cwd: string) => ({ cwd, continuation: false });
      expect(skipReason(at(join(root, "mine")), {}, only([]))).toMatch(/not opted in/);
      expect(skipReason(at(join(root, "mine")), {}, only([join(root, "mine")]))).toBeNull();
      expect(skipReason(at(join(root, "team", "app")), {}, only([]))).toBeNull();
      expect(skipReason(at(join(root, "team", "app")), {}, only([], [join(root, "team")]))).toMatch(/opted out/);
      expect(skipReason(at(join(root, "mine")), {}, { optIn: [], optOut: [] })).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("runHook's own errors", () => {
  it("are recorded as one clipped line without the control characters the agent's input held", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-hooks-err-"));
    try {
      const env = { HOME: root, XDG_STATE_HOME: join(root, "state"), XDG_DATA_HOME: join(root, "data") };
      let out = "";
      const stdin = `x\u001b]0;title\u0007\u001b[2J\n${"y".repeat(1000)}`;
      await runHook("claude", { env, stdin, stdout: { write: (c: string) => (out += c) } });
      expect(out).toBe("");
      const message: string = readState(env).runs["claude"]?.lastError?.message ?? "";
      expect(message).toMatch(/not valid JSON/);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there
      expect(message).not.toMatch(/[\u0000-\u001f]/);
      expect(message.length).toBeLessThanOrEqual(300);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("cairn hooks install --all", () => {
  it("installs in the agents set up here and says which it skipped; a named agent is installed anyway", () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-hooks-all-"));
    try {
      mkdirSync(join(root, ".claude"));
      const env = { HOME: root, XDG_STATE_HOME: join(root, "state"), XDG_DATA_HOME: join(root, "data") };
      const all = cairn(["hooks", "install", "--all"], { env });
      expect(all.code).toBe(0);
      expect(all.stdout).toContain("claude: installed");
      expect(all.stdout).toMatch(/gemini: skipped, no .*\.gemini here/);
      expect(existsSync(join(root, ".gemini"))).toBe(false);
      expect(cairn(["hooks", "install", "gemini"], { env }).stdout).toContain("gemini: installed");
      expect(existsSync(join(root, ".gemini", "settings.json"))).toBe(true);

      // Settings that are not JSON are left alone, and the other agents are still installed and remembered.
      mkdirSync(join(root, ".qwen"));
      writeFileSync(join(root, ".qwen", "settings.json"), "{ not json");
      cairn(["hooks", "remove", "--all"], { env });
      const broken = cairn(["hooks", "install", "--all"], { env });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/qwen: cannot install in .*settings\.json: .*nothing was changed/);
      expect(broken.stdout).toContain("claude: installed");
      expect(readFileSync(join(root, ".qwen", "settings.json"), "utf8")).toBe("{ not json");
      expect(cairn(["hooks", "remove", "--all"], { env }).stdout).toContain("claude: restored");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
