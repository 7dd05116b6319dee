/**
 * An edit is named by its file and a one-line summary of the change, for every agent's edit vocabulary, never by
 * the first of its raw arguments (Claude Code's Edit input starts with `replace_all`).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { timelineRows } from "../../src/search/timeline.ts";
import { changeLine } from "../../src/topology/change-line.ts";
import { REPO, realFixture } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test/fixtures/clients");
const homes = readdirSync(ROOT).map((agent) => {
  const versions = readdirSync(join(ROOT, agent)).sort(compareVersions);
  return join(ROOT, agent, versions[versions.length - 1]!, "home");
});

/** Every agent's timeline rows of calls that change files. */
function changeRows(paths: string[]): Array<{ provider: string; summary: string }> {
  const { sessions, events } = inspectPaths(paths, REPO);
  return sessions.flatMap((s) => {
    const own = events.filter((e) => e.session_id === s.session_id).sort((a, b) => a.ordinal - b.ordinal);
    const kind = new Map(own.map((e) => [e.event_id, (e.meta["input"] as { kind?: string } | undefined)?.kind]));
    return timelineRows(own, { cwd: s.cwd })
      .filter((r) => r.event_type === "tool_call" && ["edit", "write", "patch"].includes(kind.get(r.event_id) ?? ""))
      .map((r) => ({ provider: s.provider, summary: r.summary }));
  });
}

describe("edits in a timeline", () => {
  const clients = changeRows(homes);
  const RAW = /replace_all|old_?str|oldText|old_string|file_path:|"old/i;

  it("name the file and the change for every agent's own edit of math.js", () => {
    const agents = new Set(clients.map((r) => r.provider));
    expect(agents.size).toBeGreaterThan(20);
    for (const agent of agents) {
      const fixes = clients.filter(
        (r) => r.provider === agent && /math\.js: return .* → return a \+ b;$/.test(r.summary),
      );
      // Codex and gptme write patches: the file and the lines they change.
      const patched = clients.filter(
        (r) => r.provider === agent && /math\.js[^:]*\(\+\d+ −\d+ lines\)|\(patched\)/.test(r.summary),
      );
      if (agent !== "codex" && agent !== "gptme" && agent !== "interpreter" && agent !== "mini")
        expect(fixes.length + patched.length, agent).toBeGreaterThan(0);
    }
    for (const r of clients) expect(r.summary, r.provider).not.toMatch(RAW);
  });

  it("never show Claude Code's Edit as its first argument (real sessions)", () => {
    const rows = changeRows([realFixture("claude")]);
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.summary).not.toMatch(RAW);
      expect(r.summary).toMatch(/^(Edit|Write|MultiEdit): \S+(: .+ → .+| \(.+\))$/);
    }
  });

  it("say what a long, a multi-part and a patch change does in lines", () => {
    const edit = { kind: "edit" as const, path: "/w/p/src/a.ts", edits: [{ old: "a\nb\nc", new: "d" }] };
    expect(changeLine(edit, "/w/p")).toBe("src/a.ts (+1 −3 lines)");
    const two = {
      ...edit,
      edits: [
        { old: "x", new: "y" },
        { old: "z", new: "w\nv" },
      ],
    };
    expect(changeLine(two, "/w/p")).toBe("src/a.ts (+3 −2 lines, 2 edits)");
    const patch = "*** Begin Patch\n*** Update File: src/b.ts\n@@\n-old\n+new\n+more\n*** End Patch";
    expect(changeLine({ kind: "patch", patch })).toBe("src/b.ts (+2 −1 lines)");
    expect(changeLine({ kind: "shell", command: "ls" })).toBeNull();
  });
});
