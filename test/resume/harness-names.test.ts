/**
 * The names in play on what the agents' own CLIs wrote (test/fixtures/clients), through the real CLI: the text the
 * harness injects (Codex's environment context, skills and permission instructions), the parameter names of tool
 * calls (`agent_type`, `sandbox_permissions`), the keys of a tool's JSON reply, the tools' own names and the ids the
 * agents mint are not names of the code being worked on.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { cairn } from "../helpers/cli.ts";
import { REPO } from "../helpers/transcripts.ts";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function namesOf(agent: string): string {
  const dir = join(REPO, "test", "fixtures", "clients", agent);
  const newest = readdirSync(dir).sort(compareVersions).at(-1)!;
  const home = mkdtempSync(join(tmpdir(), `cairn-names-${agent}-`));
  homes.push(home);
  cpSync(join(dir, newest, "home"), home, { recursive: true });
  const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
  expect(cairn(["index"], { env }).code).toBe(0);
  const sessions = JSON.parse(cairn(["sessions", "--all", "--json"], { env }).stdout) as Array<{
    session_id: string;
    kind: string;
    event_count: number;
  }>;
  // The session that holds most of the work (a compaction's short continuation is briefed with it anyway).
  const main = sessions
    .filter((s) => s.kind !== "subagent")
    .sort((a, b) => b.event_count - a.event_count)[0]!.session_id;
  const run = cairn(["resume", main], { env });
  expect(run.code).toBe(0);
  const at = run.stdout.indexOf("## Names in play");
  expect(at).toBeGreaterThan(0);
  return run.stdout.slice(at, run.stdout.indexOf("\n## ", at + 3));
}

describe("names in play hold the code's names, not the harness's", () => {
  it("Codex: nothing from its injected instructions, nor its shell tool's parameters", () => {
    const names = namesOf("codex");
    expect(names).toContain("module.exports");
    for (const word of ["$CODEX_HOME", "permission_profile", "sandbox_permissions", "multi_agent_v1", "file_system"])
      expect(names).not.toContain(word);
  }, 120_000);

  it("Copilot CLI: not the subagent tool's parameter names", () => {
    const names = namesOf("copilot");
    expect(names).toContain("module.exports");
    expect(names).not.toContain("agent_type");
  }, 120_000);

  it("Droid and Cline: not the keys of an edit's or a helper agent's JSON reply", () => {
    const droid = namesOf("droid");
    expect(droid).toContain("module.exports");
    for (const word of ["diffLines", "lineNumber", "linesAdded"]) expect(droid).not.toContain(word);
    const cline = namesOf("cline");
    expect(cline).toContain("module.exports");
    for (const word of ["finishReason", "inputTokens", "outputTokens"]) expect(cline).not.toContain(word);
  }, 120_000);

  it("OpenCode and Gemini CLI: not a session id, nor a tool's own name", () => {
    const opencode = namesOf("opencode");
    expect(opencode).toContain("module.exports");
    expect(opencode).not.toMatch(/\bses_\w+/);
    const gemini = namesOf("gemini");
    expect(gemini).toContain("module.exports");
    expect(gemini).not.toMatch(/\bread_file\b|\bReadFile\b/);
  }, 120_000);
});
