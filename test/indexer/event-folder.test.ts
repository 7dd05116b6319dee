/**
 * A transcript kept as one JSON file per event in a folder (`Reader.eventFolder`), as OpenHands CLI keeps a
 * conversation: the state file stands for it and is what the index keys; the event files are never transcripts of
 * their own. A new event file, or one rewritten, is a change: the folder is read again whole and the events already
 * indexed keep their ids; an event file still being written waits for its writer; a line cites its event file.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSourceLine } from "../../src/app/source-line.ts";
import { indexFile } from "../../src/indexer/indexer.ts";
import { listTranscripts } from "../../src/indexer/plan.ts";
import type { Store } from "../../src/store/types.ts";
import { withStore } from "../helpers/temp-index.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test/fixtures/clients/openhands/1.16.0/home/.openhands/conversations");
const dir = mkdtempSync(join(tmpdir(), "cairn-evfolder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the recorded conversations, its main conversation's state file and events folder. */
function copy(name: string): { root: string; state: string; events: string; id: string } {
  const root = join(dir, name, "conversations");
  cpSync(FIXTURE, root, { recursive: true });
  const id = readdirSync(root)[0]!;
  return { root, state: join(root, id, "base_state.json"), events: join(root, id, "events"), id };
}

/** The last event the agent wrote (its final reply), as a new event: a new id, a new text, the next number. */
function nextReply(events: string, text: string): { name: string; json: string } {
  const names = readdirSync(events)
    .filter((n) => n.endsWith(".json"))
    .sort();
  const last = JSON.parse(readFileSync(join(events, names.at(-1)!), "utf8")) as Record<string, unknown>;
  const id = "0f0f0f0f-1111-4222-8333-444444444444";
  const next = String(names.length).padStart(5, "0");
  const reply = { ...last, id, llm_message: { role: "assistant", content: [{ type: "text", text }] } };
  return { name: `event-${next}-${id}.json`, json: JSON.stringify(reply) };
}

const texts = (s: Store, sessionId: string) =>
  s.sessionEvents(sessionId).map((e) => ({ id: e.event_id, text: e.text }));

describe("a transcript kept as a folder of event files", () => {
  it("is found by its state file, never file by file", () => {
    const { root } = copy("list");
    const found = listTranscripts([root]);
    expect(found.map((f) => f.replace(root, ""))).toEqual([
      expect.stringMatching(/^\/[0-9a-f]+\/base_state\.json$/),
      expect.stringMatching(/^\/[0-9a-f]+\/subagents\/[0-9a-f]+\/base_state\.json$/),
    ]);
  });

  it("a new event file is read; earlier events keep their ids; an unchanged folder is one look", () => {
    const { state, events, id } = copy("append");
    const db = join(dir, "append", "cairn.db");
    expect(withStore(db, (s) => indexFile(s, state)).outcome).toBe("new");
    expect(withStore(db, (s) => indexFile(s, state)).outcome).toBe("unchanged");
    const before = withStore(db, (s) => texts(s, id));

    const reply = nextReply(events, "A reply written after the first index.");
    writeFileSync(join(events, reply.name), reply.json);
    expect(withStore(db, (s) => indexFile(s, state)).outcome).toBe("rewritten");
    const after = withStore(db, (s) => texts(s, id));
    expect(after.map((e) => e.text)).toContain("A reply written after the first index.");
    expect(after.filter((e) => before.some((b) => b.id === e.id))).toHaveLength(before.length);
    expect(withStore(db, (s) => indexFile(s, state)).outcome).toBe("unchanged");
  });

  it("an event file still being written waits for its writer, without a problem", () => {
    const { state, events, id } = copy("partial");
    const db = join(dir, "partial", "cairn.db");
    const reply = nextReply(events, "A reply still being written.");
    writeFileSync(join(events, reply.name), reply.json.slice(0, reply.json.length / 2));
    const first = withStore(db, (s) => indexFile(s, state));
    expect(first.problems).toBe(0);
    expect(withStore(db, (s) => texts(s, id)).map((e) => e.text)).not.toContain("A reply still being written.");

    writeFileSync(join(events, reply.name), reply.json);
    expect(withStore(db, (s) => indexFile(s, state)).outcome).toBe("rewritten");
    expect(withStore(db, (s) => texts(s, id)).map((e) => e.text)).toContain("A reply still being written.");
  });

  it("an event's line cites its event file", () => {
    const { state, events, id } = copy("cite");
    const db = join(dir, "cite", "cairn.db");
    withStore(db, (s) => indexFile(s, state));
    const prompt = withStore(db, (s) => s.sessionEvents(id).find((e) => e.event_type === "user_message")!);
    expect(prompt.source_file).toBe(state);
    const names = readdirSync(events)
      .filter((n) => n.endsWith(".json"))
      .sort();
    const file = readFileSync(join(events, names[prompt.source_line - 1]!), "utf8");
    expect(JSON.parse(file).llm_message.content[0].text).toBe(prompt.text);
    expect(readSourceLine(prompt.source_file, prompt.source_line).text).toBe(file);
  });
});
