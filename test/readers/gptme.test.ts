/**
 * gptme's conversation logs, on what its own CLI wrote: a command's output without gptme's report around it, the
 * prompt without the files gptme attached to it, the compaction's summary, the subagent under its parent, and the
 * lines-files beside a conversation (its event log, the log before a compaction) never read as conversations.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { detectReader } from "../../src/readers/detect.ts";
import { shellOutput } from "../../src/readers/gptme/reader.ts";
import { isTranscriptFile } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test", "fixtures", "clients", "gptme", "0.35.1", "home");
const LOGS = join(FIXTURE, ".local", "share", "gptme", "logs");

describe("gptme: a command's output out of its report", () => {
  it.each([
    ["Ran command: `node test.js`\n\n`FAIL add(2, 2) = 0`\n\nReturn code: 1\n", "FAIL add(2, 2) = 0"],
    ["Ran allowlisted command: `ls`\n\n```stdout\na\nb\n```\n\n", "a\nb"],
    ["Ran command:\n```bash\ncd x\nmake\nmake test\n```\n\n```stdout\nok\n```\n\n```stderr\nwarn\n```\n\n", "ok\nwarn"],
    ["Ran command: `true`\n\nNo output\n", ""],
    ["Command timed out (after 5.0s): `sleep 9`\n\nNo output before timeout\n", ""],
    ["Saved to NOTES.md", null],
    ["Ran command: `ls`\n\nsomething gptme does not write\n", null],
  ])("%j", (report, output) => {
    expect(shellOutput(report)).toBe(output);
  });
});

describe("gptme: what its conversations say", () => {
  const r = inspectPaths([FIXTURE], REPO);
  const main = r.sessions.find((s) => s.kind === "main")!;

  it("is one conversation per folder, its subagent under it, in the work folder it ran in", () => {
    expect(r.sessions.map((s) => s.kind).sort()).toEqual(["main", "subagent"]);
    expect(main.session_id).toMatch(/^\d{4}-\d\d-\d\d-[a-z]+-[a-z]+-[a-z]+$/);
    expect(main.cwd).toBe("/tmp/cairn-clients/gptme/project");
    const sub = r.sessions.find((s) => s.kind === "subagent")!;
    expect(sub.parent_session_id).toBe(main.session_id);
  });

  it("the prompt is what was typed, without the file gptme attached to it", () => {
    const first = r.events.find((e) => e.event_type === "user_message" && e.role === "user")!;
    expect(first.text).toBe(
      "TASK-A: `node test.js` fails. Run it, fix math.js, write NOTES.md, and ask a helper to count the lines of math.js.",
    );
  });

  it("the compaction carries its summary", () => {
    const points = r.events.filter((e) => e.event_type === "resume_point");
    expect(points.map((p) => p.text)).toEqual([expect.stringContaining("add() in math.js subtracted")]);
  });

  it("a command that failed has its exit code and its output as printed", () => {
    const failed = r.events.filter((e) => e.event_type === "tool_result" && e.status === "error");
    expect(failed.map((e) => e.text.trim())).toEqual([
      "FAIL add(2, 2) = 0, expected 4",
      "Error during execution: Patch failed: original chunk not found in file",
    ]);
  });

  it("a conversation copied out of gptme's folder is still told by its first line", () => {
    const path = join(LOGS, main.session_id, "conversation.jsonl");
    const head = readFileSync(path, "utf8").split("\n").slice(0, 8);
    expect(detectReader("/elsewhere/chat.jsonl", head)?.provider).toBe("gptme");
    const events = readFileSync(join(LOGS, main.session_id, "events.jsonl"), "utf8")
      .split("\n")
      .slice(0, 8);
    expect(detectReader("/elsewhere/events.jsonl", events)?.provider).not.toBe("gptme");
  });

  it("the event log, the log before a compaction and the compactions' statistics are not conversations", () => {
    const folder = readdirSync(LOGS).find((d) => d === main.session_id)!;
    for (const name of ["events.jsonl", "lossless.jsonl", "compaction.jsonl"])
      expect(isTranscriptFile(name, join(LOGS, folder, name)), name).toBe(false);
    expect(isTranscriptFile("conversation.jsonl", join(LOGS, folder, "conversation.jsonl"))).toBe(true);
  });
});
