/**
 * The two newest readers on copies of what their own CLIs wrote: bad input is a reported problem with its file and
 * line, never an exception, and every good record is still read; Cline's session knows the folder it worked in.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-bad-cline-droid-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function copyOf(agent: string, version: string): string {
  const home = join(dir, `${agent}-${copies++}`);
  cpSync(join(REPO, "test", "fixtures", "clients", agent, version, "home"), home, { recursive: true });
  return home;
}

const files = (root: string, suffix: string) =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(root, f))
    .sort();

const prompts = (home: string) =>
  inspectPaths([home], REPO).events.filter((e) => e.event_type === "user_message" && e.role === "user").length;

describe("Factory Droid: a broken line among good ones", () => {
  it("is a problem with its line; the session's other records are read", () => {
    const home = copyOf("droid", "0.225.1");
    const before = prompts(home);
    const [file] = files(home, ".jsonl");
    const lines = readFileSync(file!, "utf8").split("\n");
    lines.splice(2, 0, '{"type":"message","id":"x"', '{"type":"hologram","id":"h1"}');
    writeFileSync(file!, lines.join("\n"));
    const r = inspectPaths([home], REPO);
    expect(r.problems.map((p) => [p.source_line, p.reason])).toEqual([
      [3, expect.stringMatching(/invalid JSON/)],
      [4, expect.stringMatching(/unknown record type 'hologram'/)],
    ]);
    expect(prompts(home)).toBe(before);
  });
});

describe("Cline: a session document cut short", () => {
  it("is a problem of that file; the other sessions still read", () => {
    const home = copyOf("cline", "3.0.65");
    const docs = files(home, ".messages.json");
    const main = docs.find((f) => !/[\\/]agent_[^\\/]+$/.test(f));
    const sub = docs.find((f) => f !== main);
    const text = readFileSync(main!, "utf8");
    writeFileSync(main!, text.slice(0, Math.floor(text.length / 2)));
    // The sessions, not the hook log beside them (no transcript, reported as such).
    const r = inspectPaths([join(home, ".cline", "data", "sessions")], REPO);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ source_file: main, reason: expect.stringMatching(/^invalid JSON/) });
    expect(r.sessions.map((s) => s.source_file)).toContain(sub);
  });
});

describe("Cline: the folder a session worked in", () => {
  it("comes from the environment its system prompt states", () => {
    const home = copyOf("cline", "3.0.65");
    const main = inspectPaths([home], REPO).sessions.find((s) => s.kind === "main");
    expect(main).toMatchObject({ cwd: "/tmp/cairn-clients/cline/project", project: "project" });
  });
});
