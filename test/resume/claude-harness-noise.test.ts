/**
 * Issue 17's wrong-failure and junk cases on what Claude Code's own CLI wrote (test/fixtures/clients/claude, made
 * by `npm run clients:refresh claude` against a fake model that answers one request "overloaded" before the real
 * reply), read through the real CLI: the API error and its retry are the agent's trouble, not a failure of the
 * command before them; the compaction summary is quoted without the harness's instructions around it; the names
 * in play hold no harness words, ids or tags.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { cairn } from "../helpers/cli.ts";
import { REPO } from "../helpers/transcripts.ts";

const CLAUDE = join(REPO, "test", "fixtures", "clients", "claude");
let home: string;
let brief: { text: string };
let transcripts: string;

function section(text: string, title: string): string {
  const at = text.indexOf(`## ${title}`);
  if (at < 0) return "";
  const next = text.indexOf("\n## ", at + 3);
  return text.slice(at, next < 0 ? undefined : next);
}

beforeAll(() => {
  const newest = readdirSync(CLAUDE).sort(compareVersions).at(-1)!;
  home = mkdtempSync(join(tmpdir(), "cairn-claude-noise-"));
  cpSync(join(CLAUDE, newest, "home"), home, { recursive: true });
  const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
  expect(cairn(["index"], { env }).code).toBe(0);
  const sessions = JSON.parse(cairn(["sessions", "--json"], { env }).stdout) as Array<{ session_id: string }>;
  const main = sessions.map((s) => s.session_id).find((id) => !id.includes("agent-"));
  expect(main).toBeDefined();
  const run = cairn(["resume", main!, "--json"], { env });
  expect(run.code).toBe(0);
  brief = JSON.parse(run.stdout);
  const projects = join(home, ".claude", "projects");
  transcripts = readdirSync(projects, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => readFileSync(join(projects, f), "utf8"))
    .join("\n");
}, 120_000);

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("a Claude Code session written by its own CLI", () => {
  it("really met an overloaded API (the fixture holds the retry record)", () => {
    expect(transcripts).toMatch(/"subtype":"api_error"/);
    expect(transcripts).toContain("Continue the conversation from where it left off");
  });

  it("does not count the API error as a failure of the command before it", () => {
    const failures = section(brief.text, "Ledger").split("### Failures")[1] ?? "";
    expect(failures).not.toMatch(/overloaded|529/i);
    // Every failure of the session was resolved later: none is left open.
    expect(failures).not.toMatch(/^- ✗/m);
  });

  it("quotes the compaction summary without the harness's instructions", () => {
    expect(brief.text).toContain("Primary request: fix the failing test");
    expect(brief.text).not.toContain("Continue the conversation from where it left off");
    expect(brief.text).not.toContain("If you need specific details from before compaction");
    expect(brief.text).not.toContain("<system-reminder>");
  });

  it("lists no harness words, ids or tags among the names in play", () => {
    const names = section(brief.text, "Names in play");
    for (const junk of [
      "agentId",
      "output_file",
      "SendMessage",
      "tool_uses",
      "duration_ms",
      "toolu_",
      "state_snapshot",
    ])
      expect(names).not.toContain(junk);
    expect(names).not.toMatch(/[0-9a-f]{12,}\.output/);
  });
});
