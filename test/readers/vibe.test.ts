/**
 * Mistral Vibe's session stores, on copies of what its own CLI wrote: a session is read from its `CURRENT` pointer
 * through the files it leads to (manifest, chunks), the recovery journal beside it is never taken for a transcript,
 * a chunk gone missing or an entry of a kind cairn does not know is a reported problem, and the calls map to file
 * actions through the agent's own tool names.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { findTranscripts } from "../../src/indexer/scan.ts";
import { defaultRoots } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test", "fixtures", "clients", "vibe", "3.0.2", "home");
const dir = mkdtempSync(join(tmpdir(), "cairn-vibe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function copy(): string {
  const home = join(dir, `home-${copies++}`);
  cpSync(FIXTURE, home, { recursive: true });
  return home;
}

const stores = (home: string) => join(home, ".vibe", "logs", "session", "unified");

/** The main session's store folder and the chunks its current manifest lists for the projection. */
function mainStore(home: string): { store: string; chunks: string[] } {
  for (const id of readdirSync(stores(home))) {
    const store = join(stores(home), id);
    const read = (rel: string) => JSON.parse(readFileSync(join(store, rel), "utf8"));
    const generation = read("CURRENT").generation as string;
    const state = read(`generations/${generation}/projection-state.json`);
    if (state.snapshot.session.parentSessionId) continue;
    const manifest = read(`generations/${generation}/manifest.json`);
    return {
      store,
      chunks: (manifest.projection_state.chunks as string[]).map((c) => join(store, "chunks", `${c}.json`)),
    };
  }
  throw new Error("no main session in the fixture");
}

describe("Mistral Vibe: where a session is read from", () => {
  it("each store's CURRENT, never its journal of JSON lines", () => {
    const found = findTranscripts(FIXTURE).map((f) => f.slice(stores(FIXTURE).length + 1));
    expect(found).toHaveLength(2);
    for (const f of found) expect(f).toMatch(/^[^/]+\/CURRENT$/);
  });

  it("the session folder under ~/.vibe, $VIBE_HOME, or the configured save_dir", () => {
    const dirs = (env: Record<string, string>) =>
      defaultRoots(env, "/home/u")
        .filter((r) => r.provider === "vibe")
        .map((r) => r.dir);
    expect(dirs({})).toEqual(["/home/u/.vibe/logs/session"]);
    expect(dirs({ VIBE_HOME: "/v" })).toEqual(["/v/logs/session"]);
    expect(dirs({ VIBE_HOME: "/v", VIBE_SESSION_LOGGING__SAVE_DIR: "/s" })).toEqual(["/s"]);
  });
});

describe("Mistral Vibe: what the store holds", () => {
  const r = inspectPaths([FIXTURE], REPO);

  it("the compaction carries the summary the model context kept", () => {
    const points = r.events.filter((e) => e.event_type === "resume_point");
    expect(points).toHaveLength(1);
    expect(points[0]!.text).toMatch(/^1\. Primary request: fix the failing test/);
  });

  it("a subagent is a session of its own under the one that spawned it", () => {
    const main = r.sessions.find((s) => s.kind === "main");
    const sub = r.sessions.find((s) => s.kind === "subagent");
    expect(main).toMatchObject({ cwd: "/tmp/cairn-clients/vibe/project", model: "fake-coder" });
    expect(sub?.parent_session_id).toBe(main?.session_id);
  });

  it("its read, edit and write tools are file actions", () => {
    const actions = r.events.filter((e) => e.event_type === "file_action" && e.tool_name !== "file_system.bash");
    expect(actions.map((e) => e.text)).toEqual(["read math.js", "edit math.js", "edit math.js", "write NOTES.md"]);
  });
});

describe("Mistral Vibe: a damaged store", () => {
  it("a chunk the manifest names that is gone is a problem; the session is still there", () => {
    const home = copy();
    const { store, chunks } = mainStore(home);
    rmSync(chunks[0]!);
    const r = inspectPaths([home], REPO);
    expect(r.problems.map((p) => p.reason)).toEqual([expect.stringContaining(chunks[0]!)]);
    expect(r.problems[0]!.source_file).toBe(join(store, "CURRENT"));
    expect(r.sessions).toHaveLength(2);
  });

  it("an entry of a kind cairn does not know is reported once, and becomes no message", () => {
    const home = copy();
    const { chunks } = mainStore(home);
    const file = chunks[chunks.length - 1]!;
    const entries = JSON.parse(readFileSync(file, "utf8")) as unknown[];
    const hologram = { type: "hologram", id: "h1", content: [{ type: "text", text: "TASK-Z: not a prompt" }] };
    writeFileSync(file, JSON.stringify([...entries, hologram, { ...hologram, id: "h2" }]));
    const r = inspectPaths([home], REPO);
    expect(r.problems.map((p) => p.reason)).toEqual(["unknown record type 'hologram'"]);
    expect(r.events.some((e) => e.text.includes("TASK-Z"))).toBe(false);
  });
});

describe("Mistral Vibe 2: one messages.jsonl per session", () => {
  const home = join(REPO, "test", "fixtures", "clients", "vibe", "2.24.5", "home");
  const r = inspectPaths([home], REPO);

  it("its session is the one meta.json beside it names, and a subagent's is under it", () => {
    const main = r.sessions.find((s) => s.kind === "main");
    const sub = r.sessions.find((s) => s.kind === "subagent");
    expect(main).toMatchObject({ cwd: "/tmp/cairn-clients/vibe/project", model: "fake-coder" });
    expect(sub?.parent_session_id).toBe(main?.session_id);
    const task = r.events.find((e) => e.session_id === sub?.session_id && e.event_type === "user_message");
    expect(task?.text).toBe("TASK-SUB: count the lines of math.js and report the number.");
  });

  it("a command that failed keeps its output as it printed it, and its exit code", () => {
    const failed = r.events.find((e) => e.event_type === "tool_result" && e.command === "node test.js");
    expect(failed).toMatchObject({ status: "error", text: "FAIL add(2, 2) = 0, expected 4\n" });
    expect(failed?.meta["exit_code"]).toBe(1);
  });

  it("a compaction is the summary its injected message carries", () => {
    const points = r.events.filter((e) => e.event_type === "resume_point");
    expect(points.map((p) => p.text)).toEqual([expect.stringMatching(/^1\. Primary request: fix the failing test/)]);
  });
});
