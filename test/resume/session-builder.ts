/**
 * Builds small pi transcripts for the resume tests, one call per thing that happens, and indexes them into a
 * temporary store. pi's format is the simplest to write by hand; the engine works on the topology, so what holds
 * for it holds for the other readers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../../src/indexer/indexer.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import type { Store } from "../../src/store/types.ts";

export class PiSession {
  readonly records: unknown[];
  private parent: string | null = null;
  private n = 0;
  private calls = 0;

  readonly id: string;
  readonly cwd: string;

  constructor(id: string, cwd = "/w/app") {
    this.id = id;
    this.cwd = cwd;
    this.records = [{ type: "session", version: 3, id, timestamp: "2026-06-05T05:00:00.000Z", cwd }];
  }

  private push(type: string, body: object): string {
    const id = `${this.id.slice(0, 4)}e${this.n}`;
    const t = new Date(Date.UTC(2026, 5, 5, 5, 0, 0) + this.n * 1000).toISOString();
    this.n++;
    this.records.push({ type, id, parentId: this.parent, timestamp: t, ...body });
    this.parent = id;
    return id;
  }

  private message(message: object): string {
    return this.push("message", { message });
  }

  user(text: string): this {
    this.message({ role: "user", content: [{ type: "text", text }], timestamp: this.n });
    return this;
  }

  assistant(text: string): this {
    this.message({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop" });
    return this;
  }

  /** A tool call and its result. */
  tool(name: string, args: Record<string, unknown>, output: string, isError = false): this {
    const callId = `c${this.calls++}`;
    this.message({
      role: "assistant",
      content: [{ type: "toolCall", id: callId, name, arguments: args }],
      stopReason: "toolUse",
    });
    this.message({
      role: "toolResult",
      toolCallId: callId,
      toolName: name,
      content: [{ type: "text", text: output }],
      isError,
    });
    return this;
  }

  /**
   * The model writes a notebook page: cairn's `notebook_write` tool, whose page pi records as a custom entry between
   * the call and its result.
   */
  notebookWrite(name: string, content: string): this {
    const callId = `c${this.calls++}`;
    const args = { name, content };
    this.message({
      role: "assistant",
      content: [{ type: "toolCall", id: callId, name: "notebook_write", arguments: args }],
      stopReason: "toolUse",
    });
    this.notebook({ version: 1, op: "write", name, content, updatedAt: this.n });
    const text = `Saved notebook page ${name}.`;
    this.message({
      role: "toolResult",
      toolCallId: callId,
      toolName: "notebook_write",
      content: [{ type: "text", text }],
      isError: false,
    });
    return this;
  }

  /** A notebook entry of cairn's pi extension (`/notebook`, or a page a handoff carried over). */
  notebook(data: Record<string, unknown>): this {
    this.push("custom", { customType: "cairn-notebook", data });
    return this;
  }

  /** The brief cairn's `/handoff` opens a new session with, built from the session in `fromFile`. */
  handoff(brief: string, direction: string, fromFile: string): this {
    const details = { direction, from: fromFile, citedEventIds: [] };
    this.push("custom_message", { customType: "cairn-handoff", content: brief, display: true, details });
    return this;
  }

  bash(command: string, output: string, exitCode = 0): this {
    const text = exitCode === 0 ? output : `${output}\n\nCommand exited with code ${exitCode}`;
    return this.tool("bash", { command }, text, exitCode !== 0);
  }

  read(path: string, content: string): this {
    return this.tool("read", { path }, content);
  }

  edit(path: string, oldText: string, newText: string): this {
    return this.tool("edit", { path, oldText, newText }, `Successfully replaced text in ${path}.`);
  }

  write(path: string, content: string): this {
    return this.tool("write", { path, content }, `Successfully wrote ${content.length} bytes to ${path}`);
  }

  /** A compaction: a resume point, so a checkpoint of the next step. */
  compaction(summary: string): this {
    this.push("compaction", { summary, firstKeptEntryId: this.parent, tokensBefore: 1000 });
    return this;
  }

  text(): string {
    return `${this.records.map((r) => JSON.stringify(r)).join("\n")}\n`;
  }

  file(): string {
    return `2026-06-05T05-00-00-000Z_${this.id}.jsonl`;
  }
}

export interface IndexedSessions {
  dir: string;
  store: Store;
  db: string;
  /** Where each session's transcript was written. */
  paths: Map<string, string>;
  /** Writes more sessions beside the first ones and indexes them into the same store. */
  add(...sessions: PiSession[]): void;
  close(): void;
}

/** Writes the sessions under a temp folder (as pi lays them out) and indexes them into a temp database. */
export function indexSessions(...sessions: PiSession[]): IndexedSessions {
  const dir = mkdtempSync(join(tmpdir(), "cairn-resume-"));
  const root = join(dir, "sessions", "--w-app--");
  mkdirSync(root, { recursive: true });
  const paths = new Map<string, string>();
  const write = (list: PiSession[]) => {
    for (const s of list) {
      const p = join(root, s.file());
      writeFileSync(p, s.text());
      paths.set(s.id, p);
    }
  };
  write(sessions);
  const db = join(dir, "cairn.db");
  const store = openStore(db);
  indexPaths({ store, paths: [join(dir, "sessions")] });
  return {
    dir,
    store,
    db,
    paths,
    add(...more) {
      write(more);
      indexPaths({ store, paths: [join(dir, "sessions")] });
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
