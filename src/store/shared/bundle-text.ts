/**
 * Evidence bundles: the units semantic search embeds, never raw messages. Each is completed by one event and
 * shows one event:
 * - tool: a tool call with a summary of its result (completed by the result, shows the call); plain reads,
 *   listings and searches that succeeded are left out, since they say little beyond the file they name;
 * - error: the error with the call that failed; test: a check with its counts, failing tests and error lines;
 * - decision: the decision; resume: a compaction or branch summary, handoff or checkpoint;
 * - request: what the user typed (not notices or injected context): the goal and the steering;
 * - reply: what the agent told the user when it reported (not a line announcing its next tool call, nor its
 *   reasoning); outcome: how a request ended, with the request and the agent's last reply to it.
 * Pure: the store hands in the anchor and a lookup for the events it hangs off. A store may keep a bundle's digest
 * in place of its text once it is embedded, and build the text again from its events when it needs it.
 */
import { createHash } from "node:crypto";
import type { SessionEvent } from "../../topology/types.ts";
import { BUNDLE_KIND_OF_EVENT, type BundleKind, type BundleRow } from "../bundle-types.ts";

const QUIET_TOOLS =
  /^(read|read_file|glob|grep|ls|list|list_dir|find|search|view|view_image|webfetch|websearch|todowrite|todoread|update_plan|write_stdin)$/i;
const CALL_CHARS = 400;
const RESULT_HEAD = 500;
const RESULT_TAIL = 200;
const TEXT_CHARS = 1_500;
const SUMMARY_CHARS = 2_500;
// The store reads an event for a bundle as its first and last BUNDLE_END_CHARS characters: every clip here is
// shorter, so a bundle of a huge output is the same as if the whole text had been read.
const REPLY_IN_OUTCOME = 800;

type Lookup = (eventId: string) => SessionEvent | undefined;

/**
 * What tells a bundle's text from another: 8 bytes of its SHA-1. A rebuilt bundle whose digest is the stored one
 * keeps its vector; a collision would keep a stale vector for one bundle, at odds of one in 2^64.
 */
export function bundleDigest(text: string): Buffer {
  return createHash("sha1").update(text).digest().subarray(0, 8);
}

function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max)}…`;
}

function headTail(text: string, head: number, tail: number): string {
  const t = text.trim();
  return t.length <= head + tail ? t : `${t.slice(0, head)}\n…\n${t.slice(-tail)}`;
}

function callLine(call: SessionEvent | undefined, fallback: SessionEvent): string {
  const tool = call?.tool_name ?? fallback.tool_name ?? "tool";
  const what = call ? clip(call.command ?? call.text, CALL_CHARS) : (fallback.command ?? fallback.file_path ?? "");
  return `${tool}: ${what}`.trim();
}

/** The call an event hangs off: a result's parent, or a derived event's result's parent. */
function callOf(event: SessionEvent, lookup: Lookup): SessionEvent | undefined {
  let current: SessionEvent | undefined = event;
  for (let depth = 0; depth < 3 && current; depth++) {
    if (current.event_type === "tool_call") return current;
    current = current.parent_event_id ? lookup(current.parent_event_id) : undefined;
  }
  return undefined;
}

/**
 * Whether a bundle can show this event, so meaning has a stored vector to judge it by: its type shows one
 * (`BUNDLE_KIND_OF_EVENT`), and a user message only when a person typed it.
 */
export function showsBundle(e: Pick<SessionEvent, "event_type" | "role" | "text" | "meta" | "status">): boolean {
  if (BUNDLE_KIND_OF_EVENT[e.event_type] === undefined) return false;
  if (e.event_type === "user_message") return e.role === "user";
  if (e.event_type === "assistant_message") return reports(e);
  return true;
}

/** Shortest reply worth embedding: "Let me check the config:" says what comes next, not what was found. */
const REPLY_MIN = 160;

/** A reply that tells the user something: prose of some length, not reasoning, not a lead-in to a tool call. */
function reports(e: Pick<SessionEvent, "role" | "text" | "meta" | "status">): boolean {
  const t = e.text.trim();
  return (
    e.role === "assistant" &&
    e.meta["reasoning"] !== true &&
    e.status === null &&
    t.length >= REPLY_MIN &&
    !t.endsWith(":")
  );
}

function row(anchorRowid: number, shows: SessionEvent, kind: BundleKind, text: string): BundleRow {
  return { anchor_rowid: anchorRowid, event_id: shows.event_id, session_id: shows.session_id, kind, text };
}

/** The bundle an event completes, or null when it completes none. */
export function buildBundle(anchorRowid: number, anchor: SessionEvent, lookup: Lookup): BundleRow | null {
  switch (anchor.event_type) {
    case "tool_result": {
      // context the harness injected (environment, instructions, reminders) is not work
      if (anchor.meta["harness"] === true) return null;
      const call = callOf(anchor, lookup);
      const tool = call?.tool_name ?? anchor.tool_name ?? "";
      const failed = anchor.status !== null && anchor.status !== "ok";
      if (!failed && QUIET_TOOLS.test(tool)) return null;
      const output = headTail(anchor.text, RESULT_HEAD, RESULT_TAIL);
      const text = `${callLine(call, anchor)}\n${failed ? `failed (${anchor.status}): ` : ""}${output}`;
      return row(anchorRowid, call ?? anchor, "tool", text);
    }
    case "error": {
      const call = callOf(anchor, lookup);
      return row(
        anchorRowid,
        anchor,
        "error",
        `${clip(anchor.text, TEXT_CHARS)}\nwhile running ${callLine(call, anchor)}`,
      );
    }
    case "test_result": {
      const failing = (anchor.meta["failing_tests"] as string[] | undefined) ?? [];
      const lines = (anchor.meta["error_lines"] as string[] | undefined) ?? [];
      const parts = [anchor.text];
      if (failing.length) parts.push(`failing: ${failing.slice(0, 20).join(", ")}`);
      if (lines.length) parts.push(lines.slice(0, 8).join("\n"));
      return row(anchorRowid, anchor, "test", clip(parts.join("\n"), TEXT_CHARS));
    }
    case "decision":
      return row(anchorRowid, anchor, "decision", clip(anchor.text, TEXT_CHARS));
    case "user_message":
      return anchor.role === "user" && anchor.text.trim()
        ? row(anchorRowid, anchor, "request", clip(anchor.text, TEXT_CHARS))
        : null;
    case "assistant_message":
      return reports(anchor) ? row(anchorRowid, anchor, "reply", clip(anchor.text, TEXT_CHARS)) : null;
    case "outcome": {
      const replyId = anchor.meta["reply"];
      const reply = typeof replyId === "string" ? lookup(replyId) : undefined;
      const text = reply ? `${anchor.text}\n${clip(reply.text, REPLY_IN_OUTCOME)}` : anchor.text;
      return row(anchorRowid, anchor, "outcome", clip(text, TEXT_CHARS));
    }
    case "resume_point":
      return anchor.text.trim() ? row(anchorRowid, anchor, "resume", clip(anchor.text, SUMMARY_CHARS)) : null;
    default:
      return null;
  }
}
