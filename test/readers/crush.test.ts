/**
 * Crush: where cairn looks (the projects Crush lists in its global data folder, each project's `.crush/crush.db`)
 * and what the reader makes of rows the harness's conversation does not produce (a turn that ended in an error or
 * was cancelled, a command the person ran with `!`, a part type a newer Crush adds). The conversation itself is
 * tested on a database Crush wrote (test/clients).
 */
import { describe, expect, it } from "vitest";
import { crushProjects } from "../../src/readers/crush/agent.ts";
import { crushReader } from "../../src/readers/crush/reader.ts";
import { defaultRoots, expandListings, isTranscriptFile } from "../../src/readers/roots.ts";

const PROJECTS = JSON.stringify({
  projects: [
    { path: "/w/a", data_dir: "/w/a/.crush", last_accessed: "2026-12-01T10:00:00Z" },
    { path: "/w/b", data_dir: "/data/b", last_accessed: "2026-11-01T10:00:00Z" },
    { path: "/w/c", last_accessed: "2026-10-01T10:00:00Z" },
  ],
});

const crushRoots = (env: Record<string, string>, files: Record<string, string>) =>
  expandListings(
    defaultRoots(env, "/home/u").filter((r) => r.provider === "crush"),
    (path) => files[path] ?? null,
  );

describe("where cairn finds Crush's databases", () => {
  it("the data folder of every project in projects.json, in Crush's global data folder", () => {
    const listed = { "/home/u/.local/share/crush/projects.json": PROJECTS };
    expect(crushRoots({}, listed)).toEqual([
      { provider: "crush", dir: "/w/a/.crush", shallow: true },
      { provider: "crush", dir: "/data/b", shallow: true },
      { provider: "crush", dir: "/w/c/.crush", shallow: true },
    ]);
  });

  it("the list moves with $XDG_DATA_HOME and $CRUSH_GLOBAL_DATA", () => {
    expect(crushRoots({ XDG_DATA_HOME: "/x" }, { "/x/crush/projects.json": PROJECTS })).toHaveLength(3);
    const env = { XDG_DATA_HOME: "/x", CRUSH_GLOBAL_DATA: "/g" };
    expect(crushRoots(env, { "/g/projects.json": PROJECTS })).toHaveLength(3);
  });

  it("no list, or one that is not JSON, names no folder", () => {
    expect(crushRoots({}, {})).toEqual([]);
    expect(crushProjects("{ cut")).toEqual([]);
    expect(crushProjects('{"projects": [1, {"path": ""}]}')).toEqual([]);
  });

  it("crush.db is a transcript file wherever a root leads (`--root <project>` finds .crush/crush.db)", () => {
    expect(isTranscriptFile("crush.db")).toBe(true);
    expect(isTranscriptFile("crush.json")).toBe(false);
  });
});

const row = (parts: unknown[], more: Record<string, unknown> = {}) =>
  JSON.stringify({
    row: "message",
    session_id: "s1",
    id: "m1",
    at: 1796558761,
    role: "assistant",
    parts: JSON.stringify(parts),
    summary: 0,
    ...more,
  });

function parse(...rows: string[]) {
  const state = crushReader.initialState("/w/a/.crush/crush.db");
  return crushReader.parse(
    rows.map((text, i) => ({ text, line: i + 1 })),
    state,
  );
}

describe("Crush rows the scripted conversation does not write", () => {
  it("a turn that ended in an error is an error notice; a cancelled one an interrupt", () => {
    const { records } = parse(
      row([{ type: "finish", data: { reason: "error", message: "Provider error", details: "429 rate limited" } }]),
      row([{ type: "finish", data: { reason: "canceled" } }], { id: "m2" }),
      row([{ type: "finish", data: { reason: "end_turn" } }], { id: "m3" }),
    );
    const notices = records.filter((r) => r.kind === "notice");
    expect(notices.map((n) => [n.level, n.text, n.meta?.["interrupt"] ?? false])).toEqual([
      ["error", "Provider error: 429 rate limited", false],
      ["warning", "canceled", true],
    ]);
  });

  it("a command the person ran with `!` is their own shell call, with its exit code", () => {
    const { records } = parse(
      row([{ type: "shell_command", data: { command: "make", output: "boom", exit_code: 2 } }], { role: "user" }),
    );
    const result = records.find((r) => r.kind === "tool_result");
    expect(records.find((r) => r.kind === "tool_call")?.meta).toEqual({ user_initiated: true });
    expect(result).toMatchObject({ exitCode: 2, output: "boom", meta: { user_initiated: true } });
  });

  it("a part type or a message role a newer Crush adds is reported, not dropped in silence", () => {
    const { problems, state } = parse(
      row([{ type: "hologram", data: { text: "hi" } }]),
      row([{ type: "text", data: { text: "hmm" } }], { id: "m2", role: "critic" }),
    );
    expect(problems.map((p) => p.reason)).toEqual([
      "unknown record type 'part/hologram'",
      "unknown record type 'message/critic'",
    ]);
    expect(Object.keys(state.unknown)).toEqual(["part/hologram", "message/critic"]);
  });

  it("times in seconds (as Crush writes them) or milliseconds; the project is the folder .crush is in", () => {
    const session = JSON.stringify({ row: "session", session_id: "s1", id: "s1", at: 1796558761, parent: null });
    const { records } = parse(session, row([{ type: "text", data: { text: "hi" } }], { at: 1796558761000 }));
    expect(records[0]).toMatchObject({ kind: "session", cwd: "/w/a", startedAt: "2026-12-06T12:06:01.000Z" });
    expect(records.find((r) => r.kind === "message")?.ts).toBe("2026-12-06T12:06:01.000Z");
  });
});
