import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceLine } from "../../src/readers/types.ts";
import { parseTranscript, startTranscript } from "../../src/topology/transcript.ts";
import type { SessionEvent } from "../../src/topology/types.ts";

const FILE = join(import.meta.dirname, "../fixtures/clients/aider/0.86.2/home/project/.aider.chat.history.md");
const lines: SourceLine[] = readFileSync(FILE, "utf8")
  .split("\n")
  .map((text, i) => ({ text, line: i + 1 }));

/** The events of reading `parts` of the file one after the other, as the indexer does while aider appends. */
function read(parts: SourceLine[][]): SessionEvent[] {
  let state = startTranscript(FILE, [lines[0]!.text])!;
  const events = new Map<string, SessionEvent>();
  for (const part of parts) {
    const out = parseTranscript(part, state);
    state = out.state;
    for (const e of out.batch.events) events.set(e.event_id, e);
  }
  return [...events.values()];
}

const replies = (events: SessionEvent[]) => events.filter((e) => e.event_type === "assistant_message");

describe("Aider's history read while aider writes it", () => {
  // Cut right after the first line of a reply: aider has not written what follows it yet (or stopped there).
  const cut = lines.findIndex((l, i) => i > 0 && lines[i - 1]!.text === "" && /^[A-Z]/.test(l.text)) + 1;

  it("shows a reply nothing follows yet, instead of holding it back", () => {
    const shown = replies(read([lines.slice(0, cut)]));
    expect(shown.at(-1)?.text).toBe(lines[cut - 1]!.text);
  });

  it("states that reply again as it grows: one event, the same id, its whole text", () => {
    const whole = replies(read([lines]));
    const inTwo = replies(read([lines.slice(0, cut), lines.slice(cut)]));
    expect(inTwo.map((e) => [e.event_id, e.text])).toEqual(whole.map((e) => [e.event_id, e.text]));
  });
});
