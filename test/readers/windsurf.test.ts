/**
 * Windsurf's Cascade transcripts on a file Windsurf itself wrote, committed as test data by git-ai
 * (test/fixtures/editors/windsurf/git-ai, SOURCE.md). What it holds is counted here from the raw JSON, not with
 * cairn's readers; cairn's reading must give the same session, prompts, tool calls and failures, with no problem,
 * find it in a fresh HOME by itself, and its brief must name the failed step.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { defaultRoots, rootsWithoutOverrides } from "../../src/readers/roots.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { cairn } from "../helpers/cli.ts";
import { byTool, REPO } from "../helpers/transcripts.ts";

const HOME = join(REPO, "test", "fixtures", "editors", "windsurf", "git-ai", "home");
const FILE = join(HOME, ".windsurf", "transcripts", "windsurf-session-simple.jsonl");
const SESSION = "windsurf-session-simple";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

interface Truth {
  sessions: string[];
  prompts: string[];
  replies: number;
  toolCalls: Record<string, number>;
  errors: number;
}

/** Every step but the person's words and Cascade's replies is a tool step; `error`, a non-zero exit or a refusal fails it. */
function truthOf(path: string): Truth {
  const steps = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { type: string; status: string } & Record<string, Record<string, unknown>>);
  const tools = steps.filter((s) => s.type !== "user_input" && s.type !== "planner_response");
  const toolCalls: Record<string, number> = {};
  for (const s of tools) toolCalls[s.type] = (toolCalls[s.type] ?? 0) + 1;
  const failed = (s: (typeof steps)[number]) =>
    s.status === "error" || (s[s.type]?.["exit_code"] ?? 0) !== 0 || s[s.type]?.["user_rejected"] === true;
  return {
    sessions: [SESSION],
    prompts: steps.filter((s) => s.type === "user_input").map((s) => String(s["user_input"]!["user_response"])),
    replies: steps.filter((s) => s.type === "planner_response").length,
    toolCalls,
    errors: tools.filter(failed).length,
  };
}

function observed(r: { sessions: Array<{ session_id: string }>; events: SessionEvent[] }): Truth {
  return {
    sessions: r.sessions.map((s) => s.session_id),
    prompts: r.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text),
    replies: r.events.filter((e) => e.role === "assistant" && e.event_type === "assistant_message").length,
    toolCalls: byTool(r.events),
    errors: r.events.filter((e) => e.event_type === "tool_result" && e.status === "error").length,
  };
}

describe("Windsurf's Cascade transcripts (~/.windsurf/transcripts/*.jsonl)", () => {
  const truth = truthOf(FILE);

  it("gives the session, prompts, replies, tool calls and failures the file holds, with no problem", () => {
    const r = inspectPaths([FILE], REPO);
    expect(r.files.map((f) => f.provider)).toEqual(["windsurf"]);
    expect(r.problems).toEqual([]);
    expect(observed(r)).toEqual(truth);
    expect(truth.prompts).toHaveLength(4);
    expect(Object.values(truth.toolCalls).reduce((a, b) => a + b, 0)).toBe(18);
    expect(truth.errors).toBe(1);
  });

  it("takes the working folder from the commands, each call's result, the commands run and the files touched", () => {
    const r = inspectPaths([FILE], REPO);
    expect(r.sessions.map((s) => s.cwd)).toEqual(["/Users/aidancunniffe/Desktop/testing-gitflows-git-ai"]);
    const calls = r.events.filter((e) => e.event_type === "tool_call");
    const results = r.events.filter((e) => e.event_type === "tool_result");
    expect(results.map((e) => e.parent_event_id)).toEqual(calls.map((e) => e.event_id));
    expect(calls.filter((e) => e.tool_name === "run_command").map((e) => e.command)).toEqual([
      "git commit -a",
      "clear",
      "git-ai status",
      "git commit -a",
      "open ~/.windsurf/transcripts",
      "git log --oneline -5",
    ]);
    const actions = r.events
      .filter((e) => e.event_type === "file_action")
      .map((e) => `${String(e.meta["op"])} ${e.file_path ?? ""}`);
    expect(actions).toContain("read /Users/aidancunniffe/Desktop/testing-gitflows-git-ai/western.md");
    expect(
      actions.filter((a) => a === "edit /Users/aidancunniffe/Desktop/testing-gitflows-git-ai/xyz.md"),
    ).toHaveLength(2);
  });

  it("reports a step type it does not know, keeps its text out of the conversation, and reads the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-windsurf-step-"));
    temps.push(dir);
    const copy = join(dir, "copy.jsonl");
    writeFileSync(
      copy,
      `${readFileSync(FILE, "utf8")}{"status":"done","type":"brand_new_step","brand_new_step":{"content":"x"}}\n`,
    );
    const r = inspectPaths([copy], REPO);
    expect(r.problems.map((p) => p.reason)).toEqual(["unknown record type 'brand_new_step'"]);
    expect(observed(r).prompts).toEqual(truth.prompts);
    expect(observed(r).toolCalls).toEqual(truth.toolCalls);
  });
});

describe("cairn finds Windsurf's transcripts by itself", () => {
  const env = (home: string) => {
    const out: Record<string, string> = { HOME: home, CAIRN_DB: join(home, "cairn.db") };
    for (const name of rootsWithoutOverrides("~").overrides) out[name] = "";
    return out;
  };

  it("in a fresh HOME, its brief names the failed step, and `cairn doctor` has nothing to say", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-windsurf-home-"));
    temps.push(home);
    cpSync(HOME, home, { recursive: true });
    const index = cairn(["index", "--json"], { env: env(home) });
    expect(index.code, index.stderr).toBe(0);
    const listed = cairn(["sessions", "--all", "--json", "--provider", "windsurf"], { env: env(home) });
    expect(listed.code, listed.stderr).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ session_id: string }>).map((s) => s.session_id);
    expect(ids).toEqual([SESSION]);
    const brief = cairn(["resume", SESSION], { env: env(home) });
    expect(brief.code, brief.stderr).toBe(0);
    expect(brief.stdout).toContain("list_resources");
    const doctor = cairn(["doctor", "--json"], { env: env(home) });
    const answer = JSON.parse(doctor.stdout) as { agents: Array<{ provider: string; findings: string[] }> };
    expect(answer.agents.find((a) => a.provider === "windsurf")?.findings).toEqual([]);
  });

  it("and a Windsurf with no transcript hook (its folder, no transcripts in it) is no finding", () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-windsurf-nohook-"));
    temps.push(home);
    mkdirSync(join(home, ".windsurf", "extensions"), { recursive: true });
    writeFileSync(join(home, ".windsurf", "argv.json"), "{}");
    const doctor = cairn(["doctor", "--json"], { env: env(home) });
    const answer = JSON.parse(doctor.stdout) as { agents: Array<{ provider: string; findings: string[] }> };
    expect(answer.agents.find((a) => a.provider === "windsurf")?.findings).toEqual([]);
  });
});

describe("Windsurf's folder", () => {
  it("is ~/.windsurf/transcripts, its files only", () => {
    const roots = defaultRoots({}, "/home/u").filter((r) => r.provider === "windsurf");
    expect(roots).toEqual([{ provider: "windsurf", dir: "/home/u/.windsurf/transcripts", shallow: true }]);
  });
});
