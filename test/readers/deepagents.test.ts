/**
 * Deep Agents Code's thread database, on what its own CLI wrote: LangGraph's MessagePack decoded to the message
 * objects it packed, the forked subagent's copies of its parent's messages read once, a command's output as it
 * printed it, the compactions' summaries, and the times the checkpoint ids carry.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { unpack } from "../../src/readers/deepagents/msgpack.ts";
import { uuid6Time } from "../../src/readers/deepagents/reader.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test", "fixtures", "clients", "deepagents", "0.1.88", "home");

describe("deepagents: LangGraph's MessagePack", () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);
  // ["m", "AIMessage", {"id": "x", "n": 300}, "model_validate_json"] packed, inside a pydantic-v2 extension (code 5).
  const model = bytes(
    ...[0x94, 0xa1, 0x6d, 0xa9, ...Buffer.from("AIMessage"), 0x82, 0xa2, 0x69, 0x64, 0xa1, 0x78],
    ...[0xa1, 0x6e, 0xcd, 0x01, 0x2c, 0xb3, ...Buffer.from("model_validate_json")],
  );

  it("reads a model as its fields with its class named", () => {
    expect(unpack(bytes(0x91, 0xc7, model.length, 5, ...model))).toEqual([{ __class: "AIMessage", id: "x", n: 300 }]);
  });

  it("passes over the fields asked to be skipped, whatever they hold", () => {
    expect(unpack(bytes(0x91, 0xc7, model.length, 5, ...model), new Set(["n"]))).toEqual([
      { __class: "AIMessage", id: "x" },
    ]);
  });

  it("numbers, text that is not ASCII, and bytes left over", () => {
    expect(unpack(bytes(0x93, 0xd0, 0xfe, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xa2, 0xc3, 0xa9))).toEqual([
      -2,
      1.5,
      "é",
    ]);
    expect(() => unpack(bytes(0xc0, 0xc0))).toThrow(/after the value/);
    expect(() => unpack(bytes(0xa3, 0x61))).toThrow(/truncated/);
  });

  it("the time in a checkpoint id (UUID v6), none in another kind of id", () => {
    expect(uuid6Time("1f1f19cc-f849-64be-bfff-b43c653e0a46")).toMatch(/^2026-12-06T17:\d\d:\d\d\.\d{3}Z$/);
    expect(uuid6Time("01a24c75-b305-774b-a75c-10e2b2ca71d9")).toBeNull();
  });
});

describe("deepagents: what its threads say", () => {
  const r = inspectPaths([FIXTURE], REPO);
  const main = r.sessions.find((s) => s.kind === "main")!;

  it("is one thread with its subagent under it, in the folder it ran in", () => {
    expect(r.sessions.map((s) => s.kind).sort()).toEqual(["main", "subagent"]);
    const sub = r.sessions.find((s) => s.kind === "subagent")!;
    expect(sub.parent_session_id).toBe(main.session_id);
    expect(main.cwd).toBe("/tmp/cairn-clients/deepagents/project");
  });

  it("the forked subagent's copies of its parent's turns are not read again", () => {
    const sub = r.sessions.find((s) => s.kind === "subagent")!;
    const texts = r.events.filter((e) => e.session_id === sub.session_id).map((e) => e.text);
    expect(texts.some((t) => t.startsWith("TASK-A:"))).toBe(false);
    expect(texts.some((t) => /^5 math\.js/.test(t.trim()))).toBe(true);
  });

  it("a command that failed has its exit code and its output as printed", () => {
    const failed = r.events.filter((e) => e.event_type === "tool_result" && e.status === "error");
    expect(failed.map((e) => e.text.trim())).toEqual([
      "FAIL add(2, 2) = 0, expected 4",
      "Error: String not found in file: 'return subtract(a, b);'",
    ]);
  });

  it("each compaction carries its summary, without dcode's preamble", () => {
    const points = r.events.filter((e) => e.event_type === "resume_point");
    expect(points.length).toBe(2);
    for (const p of points) {
      expect(p.text).toContain("add() in math.js subtracted");
      expect(p.text).not.toMatch(/You are in the middle of a conversation/);
    }
  });
});
