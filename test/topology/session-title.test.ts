/**
 * Every session gets a human title: the agent's own where it wrote a real one, else the first request a person typed
 * (not injected context, a bare slash command or a paste), else its agent and folder; never an id.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { agentTitle, requestTitle, titleLine } from "../../src/topology/session-title.ts";
import { jsonl, parseFile, parseText, REPO, realFixture } from "../helpers/transcripts.ts";

const ID_LIKE = /^(session\s+)?[0-9a-f]{6,}(-[0-9a-f]{4,})*$|^[0-9a-f-]{16,}$|^ses_\w+$/i;

function firstRequest(events: ReturnType<typeof inspectPaths>["events"], session: string): string | undefined {
  return events.find((e) => e.session_id === session && e.event_type === "user_message" && e.role === "user")?.text;
}

describe("session titles on real transcripts", () => {
  const real = ["claude", "codex", "pi"].map((a) => join(realFixture(a)));
  const clients = ["claude", "codex", "pi", "gemini", "aider", "opencode", "kilo", "openclaw"].map((agent) => {
    const versions = readdirSync(join(REPO, "test/fixtures/clients", agent)).sort(compareVersions);
    return join(REPO, "test/fixtures/clients", agent, versions[versions.length - 1]!, "home");
  });
  const { sessions, events } = inspectPaths([...real, ...clients], REPO);

  it("titles every session, never by a bare id or hex, on one line of about 80 characters", () => {
    expect(sessions.length).toBeGreaterThan(15);
    for (const s of sessions) {
      expect(s.title, s.session_id).toBeTruthy();
      expect(s.title!, s.session_id).not.toMatch(ID_LIKE);
      expect(s.title!).not.toContain(s.session_id);
      expect(s.title!).not.toMatch(/\n/);
      expect(s.title!.length).toBeLessThanOrEqual(80);
    }
  });

  it("is the first request a person typed where the agent wrote no title", () => {
    const claude = sessions.find((s) => s.session_id.startsWith("0fae0449"))!;
    expect(claude.title).toBe("I see four uncommitted files?");
    const codex = sessions.find((s) => s.session_id.startsWith("019b04ae"))!;
    expect(codex.title).toBe("add myapp directory and create myapp/hoge.py which shows result of print(1+1).");
    // pi's large session opens with a bare `/mode`: the request after it names the session.
    const pi = sessions.find((s) => s.session_id.startsWith("d703a1a9"))!;
    expect(pi.title).toMatch(/^read packages\/coding-agent\/docs\/theme\.md in full, then theme\.ts, and then.*…$/);
    for (const s of sessions.filter((s) => s.provider === "gemini" && s.kind === "main"))
      expect(s.title).toBe(titleLine(firstRequest(events, s.session_id)!));
  });

  it("keeps an agent's real title, and ignores its placeholder", () => {
    const kilo = sessions.filter((s) => s.provider === "kilo");
    expect(kilo.map((s) => s.title)).toContain("Count math.js lines (@general subagent)");
    for (const s of kilo) expect(s.title).not.toMatch(/^New session/);
  });

  it("names an OpenClaw subagent by the task its parent gave it, not by the preamble OpenClaw puts first", () => {
    const sub = sessions.filter((s) => s.provider === "openclaw" && s.kind === "subagent");
    expect(sub.length).toBeGreaterThan(0);
    for (const s of sub) expect(s.title).toMatch(/^TASK-SUB: /);
  });

  it("names a session without a request by its agent and folder", () => {
    const silent = sessions.filter((s) => s.provider === "aider" && firstRequest(events, s.session_id) === undefined);
    expect(silent.length).toBeGreaterThan(0);
    for (const s of silent) expect(s.title).toBe("Aider session in project");
  });

  it("is the same when the transcript is read in pieces", () => {
    const file = realFixture("pi/pi-mono__large-session.jsonl");
    const whole = parseFile(file).sessions.at(-1)!.title;
    const pieces = parseFile(file, [3, 5, 40, 400]);
    expect(pieces.sessions.at(-1)!.title).toBe(whole);
  });
});

describe("title rules", () => {
  const head = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w/proj" };
  const user = (id: string, text: string) => ({
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role: "user", content: [{ type: "text", text }] },
  });

  it("an agent title written later wins over the request", () => {
    const text = jsonl(head, user("a", "fix the login bug"), { type: "session_info", id: "b", name: "Login fix" });
    const parsed = parseText("/w/s.jsonl", text, [1, 2]);
    expect(parsed.sessions.at(-1)!.title).toBe("Login fix");
  });

  it("cuts at a word with an ellipsis, and skips what asks nothing in words", () => {
    const long = `please ${"refactor the parser module ".repeat(6)}`;
    const t = requestTitle(long)!;
    expect(t.length).toBeLessThanOrEqual(80);
    expect(t).toMatch(/module…$|parser…$|refactor…$|the…$/);
    expect(requestTitle("/clear")).toBeNull();
    expect(requestTitle("   ")).toBeNull();
    expect(agentTitle("<summary>")).toBeNull();
    expect(agentTitle("New session - 2026-11-24T16:26:00.424Z")).toBeNull();
    expect(agentTitle("Fix the failing add test")).toBe("Fix the failing add test");
  });
});
