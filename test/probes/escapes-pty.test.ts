/**
 * Issue 34, "no raw escape sequence in CLI text from transcript content, checked under a pty": the planted
 * transcripts carry an OSC 52 clipboard write, OSC 0 window titles, a CSI clear screen, a C1 CSI, BEL and a
 * backspace trick (in a prompt, a tool output, a file name and a reply). Every command that prints transcript text
 * runs under a real terminal (`script` from util-linux), with colour off and forced on; only cairn's own colour
 * (SGR) and erase-line codes may reach the terminal.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.ts";
import { buildIndex, type IndexedEvent, type IndexedSession, indexed, type ProbeIndex, run } from "./helpers/index.ts";
import { ESCAPED_NAME, foreignEscapes, writePlantedHome } from "./helpers/planted.ts";

let index: ProbeIndex;
let events: IndexedEvent[];
let sessions: IndexedSession[];
/** Events whose text, input or file carries a planted control character. */
let escaped: string[];

beforeAll(async () => {
  index = buildIndex("cairn-probe-escapes-", writePlantedHome);
  ({ events, sessions } = indexed(index.db));
  escaped = [];
  for (const e of events) {
    const r = await run(index, ["show", e.event_id, "--json"]);
    if (/\\u001b|\\u0007|\\b|\\u009b|\u009b/.test(r.stdout)) escaped.push(e.event_id);
  }
}, 120_000);
afterAll(() => index?.remove());

const hasScript = () => spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Runs the built CLI under a pseudo-terminal and returns the bytes the terminal received. */
function underPty(args: string[], color: "never" | "always"): { code: number | null; out: Buffer } {
  const db = args[0] === "inspect" ? [] : ["--db", index.db];
  const cmd = [process.execPath, CLI, ...args, ...db, "--color", color].map(quoted).join(" ");
  const r = spawnSync("script", ["-qec", cmd, "/dev/null"], {
    cwd: index.dir,
    env: { ...index.env, PATH: process.env["PATH"] ?? "/usr/bin:/bin", TERM: "xterm-256color", NO_COLOR: "" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout };
}

/**
 * The foreign escapes the commands sent to the terminal: one line per command name and kind of escape, with how
 * many runs sent it and the first one (its arguments, colour, and the bytes around it).
 */
function probe(commands: string[][]): string[] {
  const found = new Map<string, { first: string; count: number }>();
  for (const args of commands)
    for (const color of ["never", "always"] as const) {
      const { out } = underPty(args, color);
      for (const e of foreignEscapes(out)) {
        const key = `cairn ${args[0]}: ${e.what}`;
        const entry = found.get(key);
        if (entry) entry.count++;
        else found.set(key, { first: `cairn ${args.join(" ")} --color ${color}: ${e.context}`, count: 1 });
      }
    }
  return [...found].map(([key, { first, count }]) => `${key} in ${count} run(s), e.g. ${first}`);
}

describe.skipIf(!hasScript())("no planted escape reaches a terminal", () => {
  it("the planting carries escapes in a prompt, a tool output, a file name and a reply", () => {
    const types = new Set(escaped.map((id) => events.find((e) => e.event_id === id)!.event_type));
    for (const t of ["user_message", "tool_result", "tool_call", "assistant_message"]) expect(types, t).toContain(t);
    expect(ESCAPED_NAME).toContain("\u001b]0;");
  });

  it("show of every event that carries one", () => {
    expect(probe(escaped.map((id) => ["show", id]))).toEqual([]);
  });

  it("search for the events that carry them", () => {
    const queries = ["deploy printed", "release notes", "notes", "rotate the keys", "credentials", "kind:secret"];
    expect(probe(queries.map((q) => ["search", q]))).toEqual([]);
  });

  it("timeline of every session, with --all", () => {
    expect(
      probe(
        sessions.flatMap((s) => [
          ["timeline", s.session_id],
          ["timeline", s.session_id, "--all"],
        ]),
      ),
    ).toEqual([]);
  });

  it("resume (--latest and each session) and export as Markdown to the terminal", () => {
    const commands = [
      ["resume", "--latest"],
      ...sessions.flatMap((s) => [
        ["resume", s.session_id],
        ["export", s.session_id],
      ]),
    ];
    expect(probe(commands)).toEqual([]);
  });

  it("ask --dry-run, sessions, threads, secrets and inspect --events", () => {
    const files = [...new Set(sessions.map((s) => s.source_file))];
    const commands = [
      ["ask", "what did the deploy print and what is in the notes file", "--dry-run"],
      ["sessions", "--all"],
      ["threads", "--all"],
      ["secrets"],
      ...files.map((f) => ["inspect", f, "--events"]),
    ];
    expect(probe(commands)).toEqual([]);
  });
});
