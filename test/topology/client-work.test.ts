/**
 * What each agent's own CLI did in the scripted conversation (test/fixtures/clients, written by the real CLIs), as
 * cairn derives it: the fix to math.js is an edit, NOTES.md is a written file, and "list the files of the project",
 * answered after an `ls`, is done rather than abandoned. The truth file counts records; this checks meaning.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { headline } from "../../src/topology/text.ts";
import { REPO } from "../helpers/transcripts.ts";

const ROOT = join(REPO, "test", "fixtures", "clients");
const newest = readdirSync(ROOT)
  .sort()
  .map((agent) => {
    const versions = readdirSync(join(ROOT, agent)).sort(compareVersions);
    return { agent, home: join(ROOT, agent, versions[versions.length - 1]!, "home") };
  });

describe.each(newest)("$agent's own transcript", ({ agent, home }) => {
  const { events } = inspectPaths([home], REPO);
  const byId = new Map(events.map((e) => [e.event_id, e]));

  it("shows the fix as an edit of math.js and NOTES.md as written", () => {
    const ops = (name: string) =>
      events
        // mini-swe-agent's trajectory names no folder: its paths stay as the commands wrote them.
        .filter((e) => e.event_type === "file_action" && (e.file_path === name || e.file_path?.endsWith(`/${name}`)))
        .map((e) => e.meta["op"]);
    expect(ops("math.js")).toContain("edit");
    expect(ops("NOTES.md")).toContain("write");
  });

  // Codex and mini-swe-agent read files through their shell only, Open Interpreter through its code; Aider's history
  // says which files it added to the chat, not what they held.
  it.skipIf(agent === "codex" || agent === "mini" || agent === "interpreter" || agent === "aider")(
    "keeps what a read of math.js returned as the file's own text, without the tool's gutter or envelope",
    () => {
      const reads = events.filter(
        (e) => e.event_type === "file_action" && e.meta["op"] === "read" && e.file_path?.endsWith("/math.js"),
      );
      // A file action derives from the result that showed it happened; shell reads (`wc -l math.js`) are not the file.
      const results = reads
        .map((r) => byId.get(r.parent_event_id!)!)
        .filter((e) => e.event_type === "tool_result" && e.status !== "error" && e.command === null);
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.text).toMatch(/^function add\(a, b\) \{\n {2}return a [-+] b;\n\}\n/);
    },
  );

  // Aider's history keeps the commands a person ran, not what they printed.
  it.skipIf(agent === "aider")("keeps a command's output as it printed it, and its exit status", () => {
    const runs = events.filter((e) => e.event_type === "tool_result" && e.command === "node test.js");
    const outputs = runs.map((e) => e.text.trim());
    expect(outputs.some((t) => /^FAIL add\(2, 2\) = 0, expected 4/.test(t))).toBe(true);
    expect(outputs.some((t) => /^PASS add\(2, 2\) = 4/.test(t))).toBe(true);
    for (const t of outputs) expect(t).not.toMatch(/Process Group PGID|untrusted_context|^Output:|Exit Code:/);
  });

  // The harness cannot make Cline or Nanocoder compact yet (scripts/clients/agents/): their fixtures have none.
  // Kimi CLI's log marks a compaction but writes its summary only into the model's context file beside it;
  // mini-swe-agent never compacts; Command Code compacts only in its terminal UI, which the harness does not drive;
  // Open Interpreter trims what it sends and keeps no trace of it; Aider summarizes old messages in memory and writes
  // nothing of it.
  it.skipIf(
    agent === "cline" ||
      agent === "nanocoder" ||
      agent === "kimi" ||
      agent === "mini" ||
      agent === "commandcode" ||
      agent === "openhands" ||
      agent === "interpreter" ||
      agent === "aider",
  )("names a compaction by its summary's words, not by the harness's wrapper or preamble", () => {
    const points = events.filter((e) => e.event_type === "resume_point" && e.meta["kind"] === "compaction");
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect(p.text).not.toMatch(/^Another language model/);
      expect(headline(p.text)).toMatch(/^[\w(]/);
    }
  });

  // Droid's next request went to the compaction's continuation, a session of its own: in the session the ask was
  // made in, no later request judges it. (pi's fork re-states the ask, so it is judged in both sessions.)
  // Each Aider run is a session of its own, and the harness runs one prompt each: nothing later in the session judges it.
  it.skipIf(agent === "droid" || agent === "aider")(
    "judges the ask to list the files done once it was answered",
    () => {
      const listed = events
        .filter((e) => e.event_type === "outcome")
        .filter((o) => byId.get(o.parent_event_id!)?.text.includes("list the files"));
      expect(listed.length).toBeGreaterThan(0);
      expect(new Set(listed.map((o) => o.status))).toEqual(new Set(["done"]));
    },
  );
});
