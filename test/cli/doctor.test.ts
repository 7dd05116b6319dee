/**
 * `cairn doctor` on the files the agents' own CLIs wrote (test/fixtures/clients, the newest version of each): silent
 * when every agent's transcripts reach the index, and loud on each drift planted in a copy — a record type no reader
 * knows, a store the agent moved, a transcript that cannot be read — as `cairn` (the overview) is in one line.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import type { DoctorAnswer } from "../../src/app/doctor.ts";
import { rootsWithoutOverrides } from "../../src/readers/roots.ts";
import { cairn } from "../helpers/cli.ts";
import { copyClientHome } from "../helpers/client-home.ts";
import { REPO } from "../helpers/transcripts.ts";

const CLIENTS = join(REPO, "test", "fixtures", "clients");
const temps: string[] = [];
let clean = "";

/** A HOME holding a copy of `from`, with none of the agents' folder variables set. */
function homeEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { HOME: home, CAIRN_DB: join(home, "cairn.db") };
  for (const name of rootsWithoutOverrides("~").overrides) env[name] = "";
  return env;
}

function copyHome(from: string): string {
  const home = mkdtempSync(join(tmpdir(), "cairn-doctor-"));
  temps.push(home);
  cpSync(from, home, { recursive: true });
  return home;
}

function doctor(home: string): { code: number; answer: DoctorAnswer } {
  const run = cairn(["doctor", "--json"], { env: homeEnv(home) });
  return { code: run.code ?? -1, answer: JSON.parse(run.stdout) as DoctorAnswer };
}

function findings(answer: DoctorAnswer, provider: string): string[] {
  return answer.agents.find((a) => a.provider === provider)?.findings ?? [];
}

function newestTranscript(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".jsonl")) files.push(join(d, e.name));
  };
  walk(dir);
  return files.sort().at(-1)!;
}

beforeAll(() => {
  clean = mkdtempSync(join(tmpdir(), "cairn-doctor-clean-"));
  temps.push(clean);
  // Every agent's newest recorded version, side by side in one HOME, as a user of many agents has them.
  for (const agent of readdirSync(CLIENTS)) {
    const newest = readdirSync(join(CLIENTS, agent)).sort(compareVersions).at(-1)!;
    copyClientHome(join(CLIENTS, agent, newest, "home"), clean);
  }
  const index = cairn(["index"], { env: homeEnv(clean) });
  expect(index.code, index.stderr).toBe(0);
});

afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe("cairn doctor", () => {
  it("is silent when every agent's transcripts reach the index, and names the versions seen", () => {
    const { code, answer } = doctor(clean);
    expect(answer.agents.filter((a) => a.findings.length > 0).map((a) => [a.provider, a.findings])).toEqual([]);
    expect(code).toBe(0);
    for (const agent of readdirSync(CLIENTS)) {
      const check = answer.agents.find((a) => a.provider === agent);
      expect(check?.sessions, agent).toBeGreaterThan(0);
    }
    expect(answer.agents.find((a) => a.provider === "codex")?.versions.length).toBeGreaterThan(0);
  });

  it("names a record type no reader knows, with how many files and the first file:line", () => {
    const home = copyHome(clean);
    const file = newestTranscript(join(home, ".claude", "projects"));
    appendFileSync(
      file,
      `${JSON.stringify({ type: "holographic_replay", uuid: "u-planted", timestamp: "2026-12-06T10:00:00.000Z", sessionId: "s", text: "planted" })}\n`,
    );
    expect(cairn(["index"], { env: homeEnv(home) }).code).toBe(0);
    const { code, answer } = doctor(home);
    expect(code).toBe(1);
    expect(findings(answer, "claude")).toEqual([
      expect.stringMatching(/record type 'holographic_replay' .* 1 file \(first at .*\.jsonl:\d+\)/),
    ]);
    // Only the agent whose file it is: not Aider, whose files are searched for all over HOME.
    expect(answer.agents.filter((a) => a.findings.length > 0).map((a) => a.provider)).toEqual(["claude"]);
    // …and `cairn` says it in one line under the overview.
    const overview = cairn([], { env: homeEnv(home) });
    expect(overview.stdout).toMatch(/! Claude Code: record type 'holographic_replay'.*'cairn doctor' says more/);
  });

  it("notices a store the agent moved: its folder is there, the transcripts' folder is not", () => {
    const home = copyHome(clean);
    renameSync(join(home, ".codex", "sessions"), join(home, ".codex", "threads"));
    const { code, answer } = doctor(home);
    expect(code).toBe(1);
    expect(findings(answer, "codex")).toEqual([
      expect.stringMatching(/\.codex exists but holds none of .*elsewhere now/),
    ]);
  });

  it("names a transcript it cannot read, and a folder with files but no transcripts", () => {
    const home = copyHome(clean);
    symlinkSync(join(home, "moved-away.jsonl"), join(home, ".pi", "agent", "sessions", "linked.jsonl"));
    const droid = join(home, ".factory", "sessions");
    rmSync(droid, { recursive: true });
    cpSync(join(REPO, "package.json"), join(droid, "settings.toml"), { recursive: true });
    const { code, answer } = doctor(home);
    expect(code).toBe(1);
    expect(findings(answer, "pi")).toContain(
      `cannot read ${join(home, ".pi", "agent", "sessions", "linked.jsonl")}: it is no longer there`,
    );
    expect(findings(answer, "droid")).toEqual([
      expect.stringMatching(/holds files but none cairn reads as a transcript/),
    ]);
  });

  it("says when transcripts are there but no index is", () => {
    const home = copyHome(
      join(CLIENTS, "gemini", readdirSync(join(CLIENTS, "gemini")).sort(compareVersions).at(-1)!, "home"),
    );
    const { code, answer } = doctor(home);
    expect(code).toBe(1);
    expect(findings(answer, "gemini")).toEqual([
      expect.stringMatching(/transcript files, no index yet: run 'cairn index'/),
    ]);
  });
});
