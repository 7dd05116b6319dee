/** Small pi sessions written to disk for index-level tests. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonl } from "../helpers/transcripts.ts";

export interface Turn {
  prompt: string;
  /** bash commands with their output and whether they failed */
  runs?: Array<{ command: string; output: string; error?: boolean }>;
  reply?: string;
}

/** A session id and two turns (a failing test, a rejected push, a decision) the vector tests index. */
export const EXPORTER_SESSION = "019e963d-6bd6-7ade-8a49-256ac3391bdd";
export const EXPORTER_TURNS: Turn[] = [
  {
    prompt: "make the exporter write csv files",
    runs: [
      { command: "cat src/export.ts", output: "export function write() {}" },
      { command: "npm test", output: "FAIL test/export.test.ts > writes csv\nTests  1 failed | 3 passed", error: true },
      { command: "git push origin main", output: "! [rejected] main -> main (fetch first)", error: true },
    ],
    reply: "Decision: keep the writer synchronous, streams are not needed here.",
  },
  { prompt: "now add a header row", runs: [{ command: "npm test", output: "Tests  4 passed" }] },
];

/** Writes a v3 pi session file with the given turns; returns its path. */
export function writePiSession(dir: string, sessionId: string, turns: Turn[], cwd = "/work/app"): string {
  const records: unknown[] = [
    { type: "session", version: 3, id: sessionId, timestamp: "2026-06-05T05:24:28.246Z", cwd },
  ];
  let parent: string | null = null;
  // ids count from the start of the session, so the same turns always give the same lines (a longer list of
  // turns is the same file grown)
  let counter = 0;
  let t = 0;
  const at = () =>
    `2026-06-05T06:${String(Math.floor(t / 60) % 60).padStart(2, "0")}:${String(t++ % 60).padStart(2, "0")}.000Z`;
  const push = (message: object) => {
    const id = `e${++counter}`;
    records.push({ type: "message", id, parentId: parent, timestamp: at(), message });
    parent = id;
  };
  for (const turn of turns) {
    push({ role: "user", content: turn.prompt });
    for (const run of turn.runs ?? []) {
      const callId = `c${++counter}`;
      push({
        role: "assistant",
        content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: run.command } }],
        stopReason: "toolUse",
      });
      push({
        role: "toolResult",
        toolCallId: callId,
        toolName: "bash",
        content: [{ type: "text", text: run.output }],
        isError: run.error ?? false,
      });
    }
    if (turn.reply) push({ role: "assistant", content: [{ type: "text", text: turn.reply }], stopReason: "stop" });
  }
  const path = join(dir, `2026-06-05T05-24-28-246Z_${sessionId}.jsonl`);
  writeFileSync(path, jsonl(...records));
  return path;
}
