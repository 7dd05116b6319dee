/**
 * Auggie's reader on copies of what its own CLI wrote (test/fixtures/clients/auggie): a node type it does not know
 * is a reported problem and never a message; a document cut short is a problem of its file; its session files are
 * transcripts and the backups and half-written copies beside them are not; the document is told by its shape
 * wherever it lies; and a session the service did not have record its sub-agents reads without one.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { detectReader } from "../../src/readers/detect.ts";
import { isTranscriptFile } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURES = join(REPO, "test", "fixtures", "clients", "auggie");
const VERSION = readdirSync(FIXTURES).sort(compareVersions).at(-1)!;
const dir = mkdtempSync(join(tmpdir(), "cairn-auggie-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
/** A copy of the fixture's sessions folder and its one session document. */
function copy(): { sessions: string; file: string; doc: Record<string, unknown> } {
  const home = join(dir, `home-${copies++}`);
  cpSync(join(FIXTURES, VERSION, "home"), home, { recursive: true });
  const sessions = join(home, ".augment", "sessions");
  const file = join(sessions, readdirSync(sessions)[0]!);
  return { sessions, file, doc: JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown> };
}

type Node = Record<string, unknown>;
const exchanges = (doc: Record<string, unknown>) =>
  (doc["chatHistory"] as Array<{ exchange: { request_nodes: Node[]; response_nodes: Node[] } }>).map((e) => e.exchange);

function summary(path: string) {
  const r = inspectPaths([path], REPO);
  const count = (type: string) => r.events.filter((e) => e.event_type === type).length;
  return {
    r,
    prompts: r.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text),
    calls: count("tool_call"),
    results: count("tool_result"),
    subagents: r.sessions.filter((s) => s.kind === "subagent").length,
  };
}

describe("Auggie: node types a newer CLI adds", () => {
  it("are reported once per type, and read as nothing else", () => {
    const { sessions, file, doc } = copy();
    const before = summary(sessions);
    const [first, second] = exchanges(doc);
    first!.request_nodes.push({ id: 9, type: 6, text_node: { content: "TASK-Z: not a prompt" } });
    second!.request_nodes.push({ id: 9, type: 6 });
    second!.response_nodes.push({ id: 9, type: 9, content: "not a reply" });
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const after = summary(sessions);
    expect(after.r.problems.map((p) => p.reason).sort()).toEqual([
      "unknown record type 'request node 6'",
      "unknown record type 'response node 9'",
    ]);
    expect(after.prompts).toEqual(before.prompts);
    expect([after.calls, after.results]).toEqual([before.calls, before.results]);
    expect(after.r.events.some((e) => e.text.includes("not a reply"))).toBe(false);
  });
});

describe("Auggie: a session document cut short", () => {
  it("is a problem of its file, not an exception", () => {
    const { sessions, file } = copy();
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const r = inspectPaths([sessions], REPO);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ source_file: file, reason: expect.stringMatching(/^invalid JSON/) });
  });
});

describe("Auggie: which files are sessions", () => {
  it("a session's `<uuid>.json` is; its backups, half-written copies and other JSON are not", () => {
    const id = "5ad658f1-4486-4464-ad13-aea83f051b9a";
    expect(isTranscriptFile(`${id}.json`)).toBe(true);
    expect(isTranscriptFile(`${id}-backup1.json`)).toBe(false);
    expect(isTranscriptFile(`${id}.json.1796557289000.tmp`)).toBe(false);
    expect(isTranscriptFile("settings.json")).toBe(false);
  });

  it("a session document is told by its shape outside its folder, and not by its session id alone", () => {
    const { file } = copy();
    const head = readFileSync(file, "utf8").split("\n").slice(0, 8);
    expect(detectReader("", head)?.provider).toBe("auggie");
    expect(detectReader("", ["{", '  "sessionId": "s",', '  "updated": "2026"', "}"])).toBeNull();
  });
});

describe("Auggie: sub-agents", () => {
  it("recorded in the parent's document are sessions under it; without them, the call alone remains", () => {
    const { sessions, file, doc } = copy();
    const recorded = summary(sessions);
    expect(recorded.subagents).toBe(1);
    const sub = recorded.r.sessions.find((s) => s.kind === "subagent")!;
    expect(sub.parent_session_id).toBe(doc["sessionId"]);
    delete doc["subAgents"];
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const bare = summary(sessions);
    expect(bare.subagents).toBe(0);
    expect(bare.r.problems).toEqual([]);
    expect(bare.r.events.filter((e) => e.tool_name?.startsWith("sub-agent-"))).not.toHaveLength(0);
  });
});
