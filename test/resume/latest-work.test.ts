/**
 * "The latest session" every surface briefs without a session id: the session of a person's work (main, fork,
 * `exec`, a compaction's continuation) with the newest activity; a subagent that was active last stands for the
 * session it belongs to.
 */
import { describe, expect, it } from "vitest";
import { latestSession } from "../../src/store/resolve.ts";
import type { SessionRow } from "../../src/store/types.ts";
import type { SessionKind } from "../../src/topology/types.ts";

function row(id: string, kind: SessionKind, updated: string, extra: Partial<SessionRow> = {}): SessionRow {
  return {
    session_id: id,
    provider: "pi",
    kind,
    cwd: "/w/app",
    project: "app",
    title: null,
    started_at: updated,
    updated_at: updated,
    parent_session_id: null,
    git_branch: null,
    model: null,
    source_file: `/s/${id}.jsonl`,
    meta: {},
    source_gone: false,
    event_count: 1,
    prompt_count: 1,
    tool_count: 0,
    error_count: 0,
    test_count: 0,
    resume_count: 0,
    ...extra,
  };
}

/** The two reads `latestSession` makes, over rows in memory (newest first, as the store lists them). */
function storeOf(rows: SessionRow[]) {
  const sorted = [...rows].sort((a, b) => (b.updated_at ?? "").localeCompare(a.updated_at ?? ""));
  return {
    listSessions: (f: { kinds?: SessionKind[] }) => sorted.filter((s) => !f.kinds || f.kinds.includes(s.kind)),
    getSession: (id: string) => rows.find((s) => s.session_id === id),
  };
}

describe("the latest session", () => {
  const cases: Array<[string, SessionRow[], string]> = [
    ["a `codex exec` run that is the only work", [row("exec", "exec", "2026-01-01T10:00")], "exec"],
    [
      "the fork a person went on in, not the branch it left",
      [row("old", "main", "2026-01-01T10:00"), row("fork", "fork", "2026-01-01T11:00", { parent_session_id: "old" })],
      "fork",
    ],
    [
      "a compaction's continuation, newer than the session it continues",
      [
        row("parent", "main", "2026-01-01T10:00"),
        row("next", "main", "2026-01-01T11:00", { parent_session_id: "parent", meta: { continues: "parent" } }),
      ],
      "next",
    ],
    [
      "the session a subagent belongs to, when the subagent was the last active (through nested subagents)",
      [
        row("lead", "main", "2026-01-01T10:00"),
        row("other", "main", "2026-01-01T10:30"),
        row("sub", "subagent", "2026-01-01T11:00", { parent_session_id: "lead" }),
        row("subsub", "subagent", "2026-01-01T12:00", { parent_session_id: "sub" }),
      ],
      "lead",
    ],
    [
      "not a subagent whose parent is not indexed",
      [
        row("main", "main", "2026-01-01T10:00"),
        row("orphan", "subagent", "2026-01-01T11:00", { parent_session_id: "x" }),
      ],
      "main",
    ],
  ];
  for (const [what, rows, want] of cases) it(what, () => expect(latestSession(storeOf(rows)).session_id).toBe(want));

  it("in a folder, the folder of the work a subagent belongs to decides", () => {
    const rows = [
      row("here", "main", "2026-01-01T10:00", { cwd: "/w/app" }),
      row("there", "main", "2026-01-01T10:30", { cwd: "/w/other", project: "other" }),
      row("sub", "subagent", "2026-01-01T11:00", { parent_session_id: "there", cwd: "/w/app" }),
    ];
    expect(latestSession(storeOf(rows), "/w/app/").session_id).toBe("here");
    expect(latestSession(storeOf(rows)).session_id).toBe("there");
  });

  it("says when there is none", () => {
    expect(() => latestSession(storeOf([]))).toThrow(/no session in the index/);
    expect(() => latestSession(storeOf([row("a", "main", "2026-01-01")]), "/elsewhere")).toThrow(
      /no session in \/elsewhere/,
    );
  });
});
