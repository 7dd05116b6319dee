/**
 * Command Code on what its own CLI wrote: its sessions are told from pi's (the same header) by their folder, the
 * file snapshots beside them are never read, and a shell call's outcome comes from its output alone (an `Exit code`
 * line when it failed, none when it passed), so a brief can say the test failed and then passed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectReader } from "../../src/readers/detect.ts";
import type { RawRecord } from "../../src/readers/types.ts";
import { REPO } from "../helpers/transcripts.ts";

const PROJECT = join(REPO, "test/fixtures/clients/commandcode/1.64.0/home/.commandcode/projects");
const files = readdirSync(PROJECT, { recursive: true, encoding: "utf8" }).map((f) => join(PROJECT, f));
const session = files.find((f) => f.endsWith(".jsonl") && !f.endsWith(".checkpoints.jsonl"))!;
const checkpoints = files.find((f) => f.endsWith(".checkpoints.jsonl"))!;

function read(path: string): RawRecord[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const reader = detectReader(path, lines.slice(0, 8))!;
  const parsed = reader.parse(
    lines.map((text, i) => ({ text, line: i + 1 })).filter((l) => l.text !== ""),
    reader.initialState(path),
  );
  expect(parsed.problems).toEqual([]);
  return parsed.records;
}

describe("Command Code's files", () => {
  it("are its own, not pi's, though the header is pi's; the snapshots beside them are no transcript", () => {
    expect(readFileSync(session, "utf8")).toMatch(/^\{"type":"session","version":3,/);
    expect(detectReader(session, [])?.provider).toBe("commandcode");
    expect(detectReader(checkpoints, [])).toBeNull();
  });

  it("give a shell call the exit code its output shows, and 0 when it shows none", () => {
    const records = read(session);
    const shell = new Set(
      records.flatMap((r) => (r.kind === "tool_call" && r.name === "shell_command" ? [r.callId] : [])),
    );
    const codes = records.flatMap((r) => (r.kind === "tool_result" && shell.has(r.callId) ? [r.exitCode] : []));
    expect(codes).toEqual([1, 0, 0, 0]);
    const other = records.filter((r) => r.kind === "tool_result" && !shell.has(r.callId));
    expect(other.every((r) => r.kind === "tool_result" && r.exitCode === null)).toBe(true);
  });
});
