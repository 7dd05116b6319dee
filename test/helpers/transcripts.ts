import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { linesOf } from "../../src/readers/lines.ts";
import type { SourceLine } from "../../src/readers/types.ts";
import { type Topology, TopologyCollector } from "../../src/topology/collect.ts";
import { parseTranscript, startTranscript, type TranscriptState } from "../../src/topology/transcript.ts";
import type { Problem, SessionEvent } from "../../src/topology/types.ts";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The real transcripts shared with the project (see their SOURCES.md). They live beside the repository, not in it;
 * CAIRN_REAL_FIXTURES overrides the location. A missing folder fails the tests rather than skipping them.
 */
export function realFixturesDir(): string {
  const candidates = [
    process.env["CAIRN_REAL_FIXTURES"],
    join(REPO, "../shared/fixtures/real"),
    "/work/shared/fixtures/real",
  ];
  for (const c of candidates) if (c && existsSync(join(c, "SOURCES.md"))) return c;
  throw new Error(`real fixtures not found (tried ${candidates.filter(Boolean).join(", ")}); set CAIRN_REAL_FIXTURES`);
}

export function realFixtures(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(realFixturesDir());
  return out.sort();
}

/**
 * The line-based transcripts the agents' own CLIs wrote in the real-client harness (test/fixtures/clients), not the
 * files kept beside them that are no transcript (truth.json's `sidecars`: a usage log, a hook log).
 */
export function clientFixtures(): string[] {
  const out: string[] = [];
  const sidecars = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) out.push(p);
      else if (name === "truth.json")
        for (const f of (JSON.parse(readFileSync(p, "utf8")) as { sidecars?: string[] }).sidecars ?? [])
          sidecars.add(join(dir, "home", f));
    }
  };
  walk(join(REPO, "test", "fixtures", "clients"));
  return out.filter((f) => !sidecars.has(f));
}

export function realFixture(relative: string): string {
  return join(realFixturesDir(), relative);
}

export interface Parsed extends Topology {
  problems: Problem[];
  state: TranscriptState;
}

/**
 * Parses lines as a transcript at `path`, in pieces split before the given line indexes, carrying the state
 * through a JSON round trip between pieces exactly as the indexer stores it.
 */
export function parseLines(path: string, lines: SourceLine[], splits: number[] = []): Parsed {
  const state0 = startTranscript(
    path,
    lines.slice(0, 8).map((l) => l.text),
  );
  if (!state0) throw new Error(`no reader detected for ${path}`);
  const collector = new TopologyCollector();
  const problems: Problem[] = [];
  let state = state0;
  const cuts = [0, ...splits.filter((s) => s > 0 && s < lines.length).sort((a, b) => a - b), lines.length];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const res = parseTranscript(lines.slice(cuts[i], cuts[i + 1]), state);
    collector.add(res.batch);
    problems.push(...res.problems);
    state = JSON.parse(JSON.stringify(res.state)) as TranscriptState;
  }
  return { ...collector.result(), problems, state };
}

export function parseText(path: string, text: string, splits: number[] = []): Parsed {
  return parseLines(path, linesOf(text), splits);
}

export function parseFile(path: string, splits: number[] = []): Parsed {
  return parseText(path, readFileSync(path, "utf8"), splits);
}

export function count(
  events: SessionEvent[],
  type: SessionEvent["event_type"],
  pred: (e: SessionEvent) => boolean = () => true,
): number {
  return events.filter((e) => e.event_type === type && pred(e)).length;
}

export function byTool(events: SessionEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events)
    if (e.event_type === "tool_call" && e.tool_name) out[e.tool_name] = (out[e.tool_name] ?? 0) + 1;
  return out;
}

/** JSONL from objects, for synthetic transcripts. */
/**
 * Builders of a pi session's message records: `rec` numbers them from m1, a second apart, each the child of the
 * one before; `call` is an assistant's tool call and its result.
 */
export function piRecords() {
  let n = 0;
  const rec = (message: object) => ({
    type: "message",
    id: `m${++n}`,
    parentId: n > 1 ? `m${n - 1}` : null,
    timestamp: `2026-06-05T06:00:${String(n).padStart(2, "0")}.000Z`,
    message,
  });
  const call = (id: string, name: string, args: object, out = "done") => [
    rec({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], stopReason: "toolUse" }),
    rec({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: out }] }),
  ];
  return { rec, call };
}

export function jsonl(...records: unknown[]): string {
  return `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
}
