import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultRoots, isTranscriptFile } from "../../src/readers/roots.ts";
import { EDGE_TYPES, EVENT_TYPES } from "../../src/topology/types.ts";
import { parseFile, parseText, realFixture, realFixtures } from "../helpers/transcripts.ts";

describe("topology over the real transcripts", () => {
  const all = realFixtures().map((f) => parseFile(f));

  it("produces every edge type and the event kinds these transcripts contain", () => {
    const edgeTypes = new Set(all.flatMap((p) => p.edges.map((e) => e.edge_type)));
    expect([...edgeTypes].sort()).toEqual([...EDGE_TYPES].sort());
    const kinds = new Set(all.flatMap((p) => p.events.map((e) => e.event_type)));
    expect([...kinds].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("every edge between events points at events that exist; derived events point at their source", () => {
    for (const p of all) {
      const ids = new Set(p.events.map((e) => e.event_id));
      for (const e of p.edges) {
        if (e.edge_type === "parent") continue; // provider trees may point into other files (resumed sessions)
        if (!e.src.includes(":")) expect(ids.has(e.src), `${e.edge_type} src`).toBe(true);
        if (!e.dst.includes(":")) expect(ids.has(e.dst), `${e.edge_type} dst`).toBe(true);
      }
      for (const ev of p.events) {
        if (["file_action", "command", "test_result", "decision"].includes(ev.event_type)) {
          expect(ev.parent_event_id && ids.has(ev.parent_event_id)).toBeTruthy();
          expect(p.edges).toContainEqual(
            expect.objectContaining({ src: ev.event_id, dst: ev.parent_event_id, edge_type: "derived_from" }),
          );
        }
      }
      // `next` chains the primary events in ordinal order: one fewer edge than primary events
      const derived = new Set(p.edges.filter((e) => e.edge_type === "derived_from").map((e) => e.src));
      const primary = p.events.filter((e) => !derived.has(e.event_id));
      expect(primary.some((e) => ["file_action", "command", "test_result", "decision"].includes(e.event_type))).toBe(
        false,
      );
      expect(p.edges.filter((e) => e.edge_type === "next")).toHaveLength(primary.length - 1);
    }
  });

  it("no event's parent is missing: entries that became no event are stood in for by their own parent", () => {
    const dangling: string[] = [];
    for (const p of all) {
      const ids = new Set(p.events.map((e) => e.event_id));
      for (const e of p.events)
        if (e.parent_event_id && !ids.has(e.parent_event_id))
          dangling.push(`${e.source_file.replace(/^.*real\//, "")}:${e.source_line}`);
    }
    // The one exception is in the source itself: episodic-memory's first message names a parent from an earlier file.
    expect(dangling).toEqual(["claude/episodic-memory__large-conversation.jsonl:3"]);
  });

  it("user messages are what people typed; harness text is kept as its output; stored text has no ANSI codes", () => {
    for (const p of all) {
      for (const e of p.events) {
        if (e.event_type === "user_message") expect([e.role, e.meta["notebook"] ?? null]).toEqual(["user", null]);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for the escape character itself
        expect(/\u001b\[/.test(e.text), e.event_id).toBe(false);
      }
    }
    const harness = all.flatMap((p) => p.events.filter((e) => e.meta["harness"] === true));
    expect(harness.every((e) => e.event_type === "tool_result" && e.role !== "user" && e.role !== "tool")).toBe(true);
    expect(harness.length).toBe(31);
  });

  it("event ids are stable: the same session read again, or from another path, gets the same ids", () => {
    const file = realFixture("claude/episodic-memory__large-conversation.jsonl");
    const a = parseFile(file);
    const b = parseText("/elsewhere/copy.jsonl", readFileSync(file, "utf8"));
    expect(b.events.map((e) => e.event_id)).toEqual(a.events.map((e) => e.event_id));
  });

  it("entities: files keyed by absolute path, commands by canonical form, signatures, branches", () => {
    const pi = all.find((p) => p.sessions[0]!.provider === "pi" && p.events.length > 100)!;
    const keys = (kind: string) => pi.entities.filter((e) => e.kind === kind).map((e) => e.key);
    expect(keys("command")).toContain("npm run check");
    expect(keys("file").every((k) => k.startsWith("/") || k.startsWith("~/"))).toBe(true);
    expect(keys("file")).toContain("/Users/badlogic/workspaces/pi-mono/packages/tui/test/editor.test.ts");
    expect(keys("error_signature").length).toBeGreaterThan(5);
    const claude = all.find((p) => p.sessions[0]!.session_id === "0fae0449-64d3-4788-8622-d3a47d82c14b")!;
    expect(claude.entities).toContainEqual({
      entity_id: "branch:feature-branch",
      kind: "branch",
      key: "feature-branch",
      display: "feature-branch",
    });
  });

  it("turns count typed prompts; every event carries the turn it belongs to", () => {
    const p = all.find((x) => x.sessions[0]!.provider === "pi" && x.events.length > 100)!;
    const typed = p.events.filter((e) => e.event_type === "user_message" && e.role === "user");
    expect(typed.map((e) => e.turn)).toEqual(typed.map((_, i) => i + 1));
    expect(Math.max(...p.events.map((e) => e.turn))).toBe(typed.length);
  });
});

describe("default roots", () => {
  it("use each agent's folder and honour the overrides", () => {
    // The first three agents' folders; the others are checked in test/readers/roots.test.ts.
    const first = (roots: ReturnType<typeof defaultRoots>) =>
      roots.filter((r) => r.provider === "claude" || r.provider === "codex" || r.provider === "pi");
    expect(first(defaultRoots({}, "/home/u"))).toEqual([
      { provider: "claude", dir: "/home/u/.claude/projects" },
      { provider: "claude", dir: "/home/u/.config/claude/projects" },
      { provider: "codex", dir: "/home/u/.codex/sessions" },
      { provider: "codex", dir: "/home/u/.codex/archived_sessions" },
      { provider: "pi", dir: "/home/u/.pi/agent/sessions" },
    ]);
    expect(
      first(defaultRoots({ CLAUDE_CONFIG_DIR: "/c", CODEX_HOME: "/x", PI_CODING_AGENT_DIR: "/p" }, "/home/u")),
    ).toEqual([
      { provider: "claude", dir: "/c/projects" },
      { provider: "codex", dir: "/x/sessions" },
      { provider: "codex", dir: "/x/archived_sessions" },
      { provider: "pi", dir: "/p/sessions" },
    ]);
  });
  it("know transcript files from sidecars", () => {
    expect(isTranscriptFile("abc.jsonl")).toBe(true);
    expect(isTranscriptFile("rollout-2025-04-01-x.json")).toBe(true);
    expect(isTranscriptFile("sessions-index.json")).toBe(false);
    expect(isTranscriptFile("agent-1.meta.json")).toBe(false);
  });
});
