/**
 * The names in play on what Codex's and Copilot CLI's own CLIs wrote (test/fixtures/clients), through the real CLI:
 * the text the harness injects (Codex's environment context, skills and permission instructions) and the parameter
 * names of tool calls (`agent_type`, `sandbox_permissions`) are not names of the code being worked on.
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
  }>;
  const main = sessions.find((s) => s.kind !== "subagent")!.session_id;
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
});
