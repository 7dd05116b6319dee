/**
 * Codex's hook settings: the Claude-shaped group in `hooks.json`, and the trust table in `config.toml` without
 * which Codex does not run it (appended after the user's config, taken out again, never clashing with theirs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookAgents } from "../../src/app/hooks.ts";
import { install, remove, status } from "../../src/hooks/manage.ts";
import { codexHook, codexTrust, tomlClash, trustHash } from "../../src/readers/codex/hook.ts";

const CMD = "/usr/bin/node /opt/cairn/bin/cairn.js hooks run codex";
const HOOKS = "/home/u/.codex/hooks.json";
const USER_TOML = 'model = "gpt-5.5"\n\n[projects."/w"]\ntrust_level = "trusted"   # mine\n';

describe("Codex's trust of cairn's hook", () => {
  it("hashes the hook as Codex 0.171.0 did when it ran it", () => {
    // The hash Codex accepted in a real run (see codex-hook.test.ts for the run that proves cairn's own).
    const command = "cat > /tmp/codexhook-x-fXdX6u/stdin.json; echo hello-from-hook";
    expect(trustHash("startup|clear", { type: "command", command, timeout: 10 })).toBe(
      "sha256:5487a73470e4815eaa2d97787bf04084ebbb4263c5143b73985dc65f284d304b",
    );
  });

  it("appends one table for the hook's place in hooks.json, idempotently, and takes it out again", () => {
    const settings = codexHook.install('{ "hooks": { "SessionStart": [ { "hooks": [] } ] } }', CMD);
    const once = codexTrust.install(USER_TOML, settings, HOOKS);
    expect(once.startsWith(`${USER_TOML}\n# cairn hooks:`)).toBe(true);
    expect(once).toContain(`[hooks.state."${HOOKS}:session_start:1:0"]\ntrusted_hash = "sha256:`);
    expect(codexTrust.install(once, settings, HOOKS)).toBe(once);
    expect(codexTrust.installed(once, settings, HOOKS)).toBe(true);
    expect(codexTrust.installed(USER_TOML, settings, HOOKS)).toBe(false);
    expect(codexTrust.remove(once)).toBe(USER_TOML);
    expect(codexTrust.remove(USER_TOML)).toBeNull();
    // The hook moved (another group before it): the old trust goes, the new one comes.
    const moved = codexHook.install('{ "hooks": { "SessionStart": [ {}, {} ] } }', CMD);
    const again = codexTrust.install(once, moved, HOOKS);
    expect(again).toContain(":session_start:2:0");
    expect(again).not.toContain(":session_start:1:0");
    expect(codexTrust.install(null, settings, HOOKS).startsWith("# cairn hooks:")).toBe(true);
    expect(codexTrust.install("x = 1", settings, HOOKS).startsWith("x = 1\n\n# cairn")).toBe(true);
  });

  it("refuses a config.toml whose own definitions the table would clash with", () => {
    const key = ["hooks", "state", `${HOOKS}:session_start:0:0`];
    expect(tomlClash("hooks = { }\n", key)).toBe("hooks");
    expect(tomlClash("[hooks]\nstate = {}\n", key)).toBe("hooks.state");
    expect(tomlClash(`[hooks.state."${HOOKS}:session_start:0:0"]\nenabled = true\n`, key)).toMatch(/^\[hooks/);
    expect(tomlClash(`[hooks.state]\n"${HOOKS}:session_start:0:0".enabled = true\n`, key)).not.toBeNull();
    expect(tomlClash('[hooks]\nSessionStart = []\n[[hooks.PreToolUse]]\nmatcher = "x"\n', key)).toBeNull();
    expect(tomlClash('[hooks.state."/other:session_start:0:0"]\ntrusted_hash = "x"\n', key)).toBeNull();
    expect(tomlClash('notes = """\n[hooks]\nstate = 1\n"""\n', key)).toBeNull();
    const settings = codexHook.install(null, CMD);
    expect(() => codexTrust.install("[hooks]\nstate = {}\n", settings, HOOKS)).toThrow(/hooks\.state/);
  });

  it("reads Codex's stdin and answers in its JSON", () => {
    const start = codexHook.parseInput(
      '{"session_id":"s","transcript_path":null,"cwd":"/w","hook_event_name":"SessionStart","model":"m","permission_mode":"default","source":"compact"}',
    );
    expect(start).toEqual({ cwd: "/w", sessionId: "s", source: "compact", continuation: true });
    expect(JSON.parse(codexHook.output("brief"))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "brief" },
    });
  });
});

describe("Codex install and remove on disk", () => {
  let root = "";
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("writes both files, and gives both back byte for byte", async () => {
    root = mkdtempSync(join(tmpdir(), "cairn-codex-hooks-"));
    const env = { HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") };
    const dir = join(env.HOME, ".codex");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.toml"), USER_TOML);
    const agents = (await hookAgents()).filter((a) => a.provider === "codex");

    expect(install(env, agents, () => CMD)[0]?.did).toBe("installed");
    expect(install(env, agents, () => CMD)[0]?.did).toBe("already installed");
    expect((await status(env)).agents.find((a) => a.agent === "codex")?.installed).toBe(true);
    // Without its trust the hook would not run: status says so, and install puts it back.
    writeFileSync(join(dir, "config.toml"), USER_TOML);
    expect((await status(env)).agents.find((a) => a.agent === "codex")?.installed).toBe(false);
    expect(install(env, agents, () => CMD)[0]?.did).toBe("installed");

    expect(remove(env, agents)[0]?.did).toBe("restored");
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(USER_TOML);
    expect(() => readFileSync(join(dir, "hooks.json"))).toThrow();
  });

  it("takes out only cairn's entries from files changed since", async () => {
    root = mkdtempSync(join(tmpdir(), "cairn-codex-hooks-"));
    const env = { HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") };
    const dir = join(env.HOME, ".codex");
    const agents = (await hookAgents()).filter((a) => a.provider === "codex");
    install(env, agents, () => CMD);
    writeFileSync(join(dir, "config.toml"), `${readFileSync(join(dir, "config.toml"), "utf8")}\n[tui]\ntheme = "x"\n`);
    expect(remove(env, agents)[0]?.did).toBe("removed");
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe('\n[tui]\ntheme = "x"\n');
  });
});

describe("where Codex keeps things", () => {
  let root = "";
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("finds $CODEX_HOME as Codex resolves it, else ~/.codex", () => {
    root = mkdtempSync(join(tmpdir(), "cairn-codex-home-"));
    mkdirSync(join(root, "real"));
    symlinkSync(join(root, "real"), join(root, "link"));
    expect(codexHook.settingsPath({ CODEX_HOME: join(root, "link") }, "/h")).toBe(join(root, "real", "hooks.json"));
    expect(codexTrust.path({}, "/h")).toBe("/h/.codex/config.toml");
  });

  it("looks for earlier sessions in the newest day folders, across months and years", () => {
    root = mkdtempSync(join(tmpdir(), "cairn-codex-days-"));
    const sessions = join(root, "sessions");
    const days = ["2025/12/30", "2025/12/31", "2026/01/01", "2026/01/02", "2026/01/10", "2026/02/01", "2026/02/03"];
    for (const day of days) mkdirSync(join(sessions, day), { recursive: true });
    const transcriptPath = join(sessions, "2026/02/03/rollout-2026-02-03T10-00-00-x.jsonl");
    const where = codexHook.earlier?.({ cwd: "/w", transcriptPath, continuation: false }, {}, "/h");
    expect(where?.dirs).toEqual(
      ["2026/02/03", "2026/02/01", "2026/01/10", "2026/01/02", "2026/01/01", "2025/12/31", "2025/12/30"].map((d) =>
        join(sessions, d),
      ),
    );
    expect(where?.match("rollout-2026-02-03T10-00-00-x.jsonl")).toBe(true);
    expect(where?.match("notes.txt")).toBe(false);
    // No transcript named (an ephemeral session): the same folders under $CODEX_HOME.
    expect(codexHook.earlier?.({ cwd: "/w", continuation: false }, { CODEX_HOME: root }, "/h")?.dirs).toEqual(
      where?.dirs,
    );
  });
});
