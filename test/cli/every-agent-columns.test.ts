/**
 * Tabular output over a row of every agent (what each agent's own CLI wrote, test/fixtures/clients): the column
 * after the provider starts at one place whichever agent a row is from, and counts of one are singular.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS } from "../../scripts/clients/agents/index.ts";
import { compareVersions } from "../../scripts/clients/install.ts";

/** Every agent the harness drives (editors such as Cursor have no recorded CLI run here). */
const PROVIDERS = DRIVERS.map((d) => d.name);

import { cairn } from "../helpers/cli.ts";
import { copyClientHome } from "../helpers/client-home.ts";
import { REPO } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");
const home = mkdtempSync(join(tmpdir(), "cairn-columns-"));
const env = { HOME: home, XDG_DATA_HOME: join(home, ".local", "share"), XDG_CONFIG_HOME: join(home, ".config") };
let sessions: Array<{ session_id: string; provider: string; title: string }> = [];

beforeAll(() => {
  for (const agent of readdirSync(ROOT)) {
    const newest = readdirSync(join(ROOT, agent)).sort(compareVersions).at(-1)!;
    copyClientHome(join(ROOT, agent, newest, "home"), home);
  }
  expect(cairn(["index"], { env }).code).toBe(0);
  sessions = JSON.parse(cairn(["sessions", "--all", "--json"], { env }).stdout);
}, 180_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function printed(args: string[]): string[] {
  const r = cairn(args, { env });
  expect(r.code).toBe(0);
  return r.stdout.split("\n");
}

/** Where `marker` starts in each line that holds it, one per agent in the rows. */
function startsByAgent(lines: string[], rows: Array<{ provider: string; marker: string }>): Map<string, number> {
  const at = new Map<string, number>();
  for (const { provider, marker } of rows) {
    const line = lines.find((l) => l.includes(marker) && l.includes(` ${provider} `));
    // After the provider: an id that starts with a date (gptme's `2026-12-06-…`) is also the row's time.
    if (line) at.set(provider, line.indexOf(marker, line.indexOf(` ${provider} `)));
  }
  return at;
}

describe("columns line up for every agent", () => {
  it("the fixtures hold a session of every agent", () => {
    expect(new Set(sessions.map((s) => s.provider))).toEqual(new Set(PROVIDERS));
  });

  it("sessions: the title starts at one column", () => {
    const at = startsByAgent(
      printed(["sessions", "--all"]),
      sessions.map((s) => ({ provider: s.provider, marker: s.title.replace(/\s+/g, " ").slice(0, 20) })),
    );
    expect(at.size).toBe(PROVIDERS.length);
    expect(new Set(at.values()).size).toBe(1);
  });

  it("overview: the recent sessions' ids and the per-agent counts start at one column", () => {
    const lines = printed(["overview"]);
    const recent = startsByAgent(
      lines,
      sessions.map((s) => ({ provider: s.provider, marker: ` ${s.session_id.slice(0, 8)}` })),
    );
    // The newest sessions may all be one agent's (each Aider run is a session); the by-agent rows below hold them all.
    expect(recent.size).toBeGreaterThan(0);
    expect(new Set(recent.values()).size).toBe(1);
    const byAgent = lines.filter((l) => /^ {2}[a-z]+ +\d+ {2}/.test(l));
    expect(byAgent.length).toBeGreaterThan(5);
    expect(new Set(byAgent.map((l) => /^ {2}[a-z]+ +\d+/.exec(l)![0].length)).size).toBe(1);
  });

  it("search: the event kind starts at one column", () => {
    // A hit's line starts with its time, or a dash when the agent records none (Nanocoder's and Continue's sessions).
    const lines = printed(["search", "math.js", "--limit", "5000"]).filter((l) => /^(\d{4}-|— )/.test(l));
    const kindAt = new Map<string, number>();
    for (const line of lines) {
      const provider = PROVIDERS.find((p) => line.slice(18).startsWith(`${p} `));
      // the kind, its status, then the event id
      const at = line.search(/ \w+( \(\w+\))? {2}[0-9a-f]{16}\b/);
      if (provider && at > 0) kindAt.set(`${provider} ${at}`, at);
    }
    expect(new Set([...kindAt.keys()].map((k) => k.split(" ")[0])).size).toBe(PROVIDERS.length);
    expect(new Set(kindAt.values()).size).toBe(1);
  });
});

describe("counts of one are singular", () => {
  it("sessions says '1 prompt', '1 tool', never '1 prompts'", () => {
    const text = printed(["sessions", "--all"]).join("\n");
    expect(text).toMatch(/\b1 prompt, 1 tool,/);
    expect(text).not.toMatch(/\b1 (prompts|tools|errors|checks)\b/);
  });
});
