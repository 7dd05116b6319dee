/**
 * Units: what a brief quotes. One per primary event a reader would look at (a typed request, an assistant
 * message, a tool call with what came back, a compaction summary); derived events ride along with their source.
 * Each unit renders two ways: short for the selected context, fuller for the verbatim recent tail.
 */

import { answersNo } from "../topology/command.ts";
import { clip, firstLine } from "../topology/text.ts";
import type { SessionEvent } from "../topology/types.ts";
import { shownCommand } from "./entities.ts";
import { exitCodeOf } from "./failures.ts";
import { displayPath } from "./file-states.ts";
import { summaryBody } from "./harness-text.ts";
import { isCarriedBrief } from "./notebook.ts";
import { isBareCommand, isTypedUserMessage } from "./requests.ts";
import type { Timeline } from "./timeline.ts";

export const UNIT_KINDS = ["user", "assistant", "tool", "resume_point"] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export interface Unit {
  id: string;
  ordinal: number;
  kind: UnitKind;
  /** The source events: the call and its result, the message, the resume point. */
  cites: string[];
  tool: string | null;
  /** Canonical command of a shell call. */
  command: string | null;
  /** File keys the unit touched, with the operation. */
  files: Array<{ key: string; op: string }>;
  failed: boolean;
  /** Check family of a shell call (test, typecheck, lint, build, check). */
  family: string | null;
  /** Derived events of the unit: decisions, errors, test results. */
  derived: SessionEvent[];
  /** The event texts, for scoring and the renderings. */
  call: SessionEvent;
  result: SessionEvent | null;
}

/** Builds the units of a timeline, in timeline order. */
export function unitsOf(t: Timeline): Unit[] {
  const results = new Map<string, SessionEvent>();
  const derived = new Map<string, SessionEvent[]>();
  for (const e of t.events) {
    if (!e.parent_event_id) continue;
    if (e.event_type === "tool_result") results.set(e.parent_event_id, e);
    else if (e.event_type !== "tool_call" && e.event_type !== "user_message" && e.event_type !== "assistant_message") {
      const list = derived.get(e.parent_event_id) ?? [];
      list.push(e);
      derived.set(e.parent_event_id, list);
    }
  }
  const units: Unit[] = [];
  for (const e of t.events) {
    const base = {
      id: e.event_id,
      ordinal: e.ordinal,
      call: e,
      result: null,
      tool: null,
      command: null,
      files: [],
      failed: false,
      family: null,
    };
    if (e.event_type === "user_message") {
      // Notebook pages are the ledger's notebook, not something the person said.
      if (!isTypedUserMessage(e)) continue;
      if (isBareCommand(e.text)) continue;
      units.push({ ...base, kind: "user", cites: [e.event_id], derived: derived.get(e.event_id) ?? [] });
    } else if (e.event_type === "assistant_message") {
      if (e.text.trim() === "") continue;
      units.push({ ...base, kind: "assistant", cites: [e.event_id], derived: derived.get(e.event_id) ?? [] });
    } else if (e.event_type === "resume_point") {
      // A brief handed over from another session is named in the ledger; its facts are cited in that session.
      if (e.text.trim() === "" || isCarriedBrief(e)) continue;
      // The unit shows the summary without its harness wrapping; the event cited keeps every word.
      const call = { ...e, text: summaryBody(e.text) };
      units.push({ ...base, call, kind: "resume_point", cites: [e.event_id], derived: [] });
    } else if (e.event_type === "tool_call") {
      const result = results.get(e.event_id) ?? null;
      const more = result ? (derived.get(result.event_id) ?? []) : [];
      const files = more
        .filter((d) => d.event_type === "file_action" && d.file_path)
        .map((d) => ({ key: d.file_path!, op: String(d.meta["op"] ?? "") }));
      if (files.length === 0 && e.file_path) files.push({ key: e.file_path, op: "" });
      const command = e.command ? (more.find((d) => d.event_type === "command")?.command ?? e.command) : null;
      units.push({
        ...base,
        kind: "tool",
        cites: result ? [e.event_id, result.event_id] : [e.event_id],
        tool: e.tool_name,
        command,
        files,
        // A `grep` that found nothing failed only technically; it is not a dead end to show.
        failed: result?.status === "error" && (command === null || !answersNo(command, exitCodeOf(result))),
        family: typeof e.meta["family"] === "string" ? (e.meta["family"] as string) : null,
        derived: more,
        result,
      });
    }
  }
  return units;
}

/** Head and tail of a long text with the omission marked (and where the whole text is). */
export function headTail(text: string, max: number, id: string): string {
  if (text.length <= max) return text;
  const headChars = Math.floor(max * 0.7);
  const tailChars = max - headChars;
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const omitted = text.slice(headChars, text.length - tailChars);
  const lines = omitted.split("\n").length - 1;
  return `${head}\n… [${omitted.length} characters${lines > 0 ? `, ${lines} lines` : ""} omitted; cairn show ${id}]\n${tail}`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => (l === "" ? "" : `    ${l}`))
    .join("\n");
}

/** What a tool call did, in one line: the command or file, and how it ended. */
function outcome(u: Unit): string {
  if (!u.result) return "(no result recorded)";
  const test = u.derived.find((d) => d.event_type === "test_result");
  const error = u.derived.find((d) => d.event_type === "error");
  if (test) return `${test.status === "fail" ? "✗" : "✓"} ${clip(firstLine(test.text), 200)}`;
  if (u.failed) return `✗ ${clip(error ? error.text : firstLine(u.result.text), 240)}`;
  const lines = u.result.text === "" ? 0 : u.result.text.split("\n").length;
  const output = `${lines} line${lines === 1 ? "" : "s"} of output`;
  // A question answered "no" (a search that found nothing) is not a failure, nor is it "ok".
  if (u.result.status === "error") {
    const code = exitCodeOf(u.result);
    return `no (${code === null ? "a non-zero exit" : `exit ${code}`}, ${output})`;
  }
  return `ok (${output})`;
}

export interface RenderLimits {
  /** Characters of a message or call text. */
  text: number;
  /** Characters of tool output; 0 shows only the outcome line. */
  output: number;
}

export const CONTEXT_LIMITS: Record<UnitKind, RenderLimits> = {
  user: { text: 6000, output: 0 },
  assistant: { text: 1200, output: 0 },
  tool: { text: 700, output: 0 },
  resume_point: { text: 8000, output: 0 },
};

export const TAIL_LIMITS: Record<UnitKind, RenderLimits> = {
  user: { text: 8000, output: 0 },
  assistant: { text: 4000, output: 0 },
  tool: { text: 2000, output: 2400 },
  resume_point: { text: 8000, output: 0 },
};

/** A unit as Markdown: `- @ordinal who:` then the text, indented; tool calls with their outcome. */
export function renderUnit(u: Unit, limits: RenderLimits, cwd: string | null): string {
  const at = `@${u.ordinal}`;
  const text = u.call.text.trim();
  switch (u.kind) {
    case "user":
      return `- ${at} user (turn ${u.call.turn}):\n${indent(headTail(text, limits.text, u.id))}`;
    case "assistant":
      return `- ${at} assistant:\n${indent(headTail(text, limits.text, u.id))}`;
    case "resume_point":
      return `- ${at} ${String(u.call.meta["kind"] ?? "resume point")} summary:\n${indent(headTail(text, limits.text, u.id))}`;
    case "tool": {
      const what = u.command ? shownCommand(u.command) : u.files[0] ? clip(displayPath(u.files[0].key, cwd), 160) : "";
      const head = `- ${at} ${u.tool ?? "tool"}${what ? ` \`${what.replace(/\n/g, " ")}\`` : ""} → ${outcome(u)}`;
      // The call's own text adds nothing for a plain command or a read; for edits and writes it is the change.
      const body = u.command !== null || /^(read|view|glob|grep|ls|find)/i.test(u.tool ?? "") ? "" : text;
      let out = body && limits.text > 0 ? `${head}\n${indent(headTail(body, limits.text, u.id))}` : head;
      if (limits.output > 0 && u.result && u.result.text.trim() !== "")
        out += `\n    output:\n${indent(indent(headTail(u.result.text.trimEnd(), limits.output, u.result.event_id)))}`;
      return out;
    }
  }
}
