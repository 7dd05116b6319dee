/**
 * Aider's chat history, `.aider.chat.history.md`: markdown appended to by every run in the project, read line by
 * line. `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time) starts a run, which is one session; `#### `
 * lines are what the person typed (one line each of a prompt of several), `> ` lines aider's own output (its
 * start-up banner, questions and answers, `Applied edit to <file>`, `Tokens: …`, errors), and the rest the model's
 * replies. Each run names the one before it in the file as the work it carries on. Edits are SEARCH/REPLACE blocks
 * in a reply (blocks.ts); aider's report of blocks that did not match (`> # N SEARCH/REPLACE blocks failed to
 * match!`) goes on unquoted, one `## SearchReplaceNoExactMatch: … in <file>` section a block, up to `The SEARCH
 * section must exactly match …` and the note on the blocks that did apply. A
 * command the person ran (`/run`, `/test`, `!`) is written as typed, but not its output or exit status: `/test`
 * adds the output to the chat only when the command failed (`> Added N lines of output to the chat.`), `/run`
 * whenever the person says yes.
 */
import { createHash } from "node:crypto";
import { basename, dirname } from "node:path";
import { problem } from "../json.ts";
import type { LineProblem, RawRecord, Reader, SourceLine } from "../types.ts";
import { DIVIDER, editBlocks, REPLACE, SEARCH } from "./blocks.ts";

interface PendingEdit {
  callId: string;
  path: string;
  search: string;
}

/** A `## SearchReplaceNoExactMatch` section of aider's report, being read. */
interface Failure {
  path: string;
  /** Which part of the echoed block the next line is in. */
  part: "search" | "replace" | "after";
  search: string[];
  output: string[];
}

export interface AiderState {
  sessionId: string | null;
  cwd: string;
  folder: string;
  /** When the run started (the header's local time), for its records. */
  ts: string | null;
  /** What the lines being gathered are: a prompt, a reply, aider's report of failed blocks, or its tail. */
  mode: "out" | "prompt" | "reply" | "report" | "tail";
  buf: string[];
  bufLine: number;
  pending: PendingEdit[];
  /** The command the person ran last in this run, until its result is known. */
  shell: { callId: string; test: boolean } | null;
  failure: Failure | null;
}

const HEADER = /^# aider chat started at (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\s*$/;
const FAILED_REPORT = /^# \d+ SEARCH\/REPLACE blocks? failed to match!/;
const NO_MATCH = /^## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in (.+?)\s*$/;
const REPORT_END = /^The SEARCH section must exactly match /;
const OTHERS_APPLIED = /^# The other \d+ SEARCH\/REPLACE blocks? were applied successfully\./;
const TAIL = /^(Don't re-send them\.|Just reply with fixed versions of the blocks? above that failed to match\.)/;
const APPLIED = /^Applied edit to (.+?)\s*$/;
const OUTPUT_ADDED = /^Added \d+ lines? of output to the chat\./;
const RUN_FAILED = /^Error occurred while running command /;
const VERSION = /^Aider v(\S+)/;
const MODEL = /^Model: (\S+) with (\S+) edit format/;
/** aider's own lines that say something failed (a model API's error, a file it could not write, a crash). */
const ERROR = /^(litellm\.\w+|\w+(Error|Exception)\b|Unable to |Exception while |The LLM did not conform |Error:)/;
/** The person's commands whose rest is a prompt to the model. */
const ASKING = /^\/(ask|code|architect|context)\s+/;
const SHELL = /^(?:\/(run|test)\s+|!)(.*)$/s;

export const aiderReader: Reader<AiderState> = {
  provider: "aider",
  version: 1,
  detect(path, firstLine) {
    if (firstLine !== "") return HEADER.test(firstLine);
    return path.endsWith(".aider.chat.history.md");
  },
  initialState(path) {
    const cwd = dirname(path);
    return {
      sessionId: null,
      cwd,
      folder: basename(cwd),
      ts: null,
      mode: "out",
      buf: [],
      bufLine: 0,
      pending: [],
      shell: null,
      failure: null,
    };
  },
  parse(lines, state) {
    const s: AiderState = { ...state, buf: [...state.buf], pending: [...state.pending] };
    const out: RawRecord[] = [];
    const problems: LineProblem[] = [];
    for (const line of lines) readLine(s, line, out, problems);
    // A reply is complete only once aider writes after it; until then it is shown as far as it goes, so the last
    // reply of a run that stopped (a crash, Ctrl-C) is not held back, and is stated again as it grows.
    if (s.mode === "reply") out.push(reply(s));
    return { records: out, problems, state: s };
  },
};

function readLine(s: AiderState, line: SourceLine, out: RawRecord[], problems: LineProblem[]): void {
  const text = line.text;
  const header = text.startsWith("# aider chat started at ") ? HEADER.exec(text) : null;
  if (header) return startRun(s, header[1]!, header[2]!, line, out);
  if (s.sessionId === null) {
    if (text.trim() !== "") problems.push(problem(line, "text before aider's first run"));
    return;
  }
  if (s.mode === "report" && (text.startsWith("####") || quoted(text))) closeFailure(s, line, out);
  if (text.startsWith("####")) {
    if (s.mode !== "prompt") {
      flush(s, out);
      s.mode = "prompt";
      s.bufLine = line.line;
    }
    s.buf.push(text.slice(text.startsWith("#### ") ? 5 : 4).replace(/\s+$/, ""));
    return;
  }
  if (quoted(text)) {
    flush(s, out);
    s.mode = "out";
    return said(s, text.slice(1).trim(), line, out);
  }
  if (s.mode === "report" || s.mode === "tail") {
    if (reportLine(s, text, line, out)) return;
    s.mode = "out";
  }
  if (s.mode === "prompt") flush(s, out);
  if (s.mode === "out") {
    if (text.trim() === "") return;
    s.mode = "reply";
    s.bufLine = line.line;
  }
  s.buf.push(text);
}

/** One of aider's own lines (`> …`), not a block's `>>>>>>> REPLACE` or a reply's quote of several levels. */
function quoted(text: string): boolean {
  return text.startsWith("> ") || text === ">";
}

function startRun(s: AiderState, day: string, time: string, line: SourceLine, out: RawRecord[]): void {
  if (s.mode === "report") closeFailure(s, line, out);
  flush(s, out);
  endRun(s, line, out);
  s.mode = "out";
  const local = new Date(`${day}T${time}`);
  s.ts = Number.isNaN(local.getTime()) ? null : local.toISOString();
  // Its folder, the time it started and where in the file: the same on every machine and time zone.
  const previous = s.sessionId;
  const hex = createHash("sha256").update(`${s.folder}\n${day} ${time}\n${line.line}`).digest("hex");
  s.sessionId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  out.push({
    kind: "session",
    line: line.line,
    ts: s.ts,
    key: "session",
    sessionId: s.sessionId,
    sessionKind: "main",
    cwd: s.cwd,
    startedAt: s.ts,
    // The project's work goes on from the run before (aider can load its chat again, `--restore-chat-history`):
    // a brief of this run reads the runs before it first.
    ...(previous !== null ? { meta: { continues: previous } } : {}),
  });
}

/** A run ends: a `/test` without output added passed; edits nothing confirmed keep no result. */
function endRun(s: AiderState, line: SourceLine, out: RawRecord[]): void {
  if (s.shell?.test) shellResult(s, line, "", false, out);
  s.shell = null;
  s.pending = [];
  s.failure = null;
}

/** The reply gathered so far, as a message that may state again one shown before (same key). */
function reply(s: AiderState): Extract<RawRecord, { kind: "message" }> {
  let end = s.buf.length;
  while (end > 0 && s.buf[end - 1]!.trim() === "") end--;
  const text = s.buf.slice(0, end).join("\n");
  return {
    kind: "message",
    line: s.bufLine,
    ts: s.ts,
    key: `L${s.bufLine}`,
    role: "assistant",
    text,
    typed: false,
    update: true,
  };
}

/** Emits the prompt or reply gathered so far; what follows is aider's until said otherwise. */
function flush(s: AiderState, out: RawRecord[]): void {
  if (s.buf.length === 0) return;
  const at = { line: s.bufLine, ts: s.ts };
  if (s.mode === "prompt") {
    const typed = s.buf.join("\n").trim();
    if (s.shell?.test) shellResult(s, { line: s.bufLine, text: "" }, "", false, out);
    s.shell = null;
    s.pending = [];
    const shell = SHELL.exec(typed);
    if (shell) {
      const callId = `L${s.bufLine}`;
      s.shell = { callId, test: shell[1] === "test" };
      const input = { command: shell[2]!.trim() };
      out.push({ kind: "tool_call", ...at, key: callId, callId, name: "bash", input, meta: { user_initiated: true } });
    } else {
      const command = typed.startsWith("/") && !ASKING.test(typed);
      const words = command ? typed : typed.replace(ASKING, "");
      out.push({ kind: "message", ...at, key: `L${s.bufLine}`, role: "user", text: words, typed: !command });
    }
  } else if (s.mode === "reply") {
    const message = reply(s);
    const { key, text } = message;
    out.push(message);
    s.pending = [];
    for (const b of editBlocks(text)) {
      const callId = `${key}#${b.at}`;
      const write = b.search.trim() === "";
      const input = write
        ? { file_path: b.path, content: b.replace }
        : { file_path: b.path, old_string: b.search, new_string: b.replace };
      out.push({
        kind: "tool_call",
        ...at,
        key: callId,
        callId,
        name: write ? "write" : "edit",
        input,
        messageKey: key,
      });
      s.pending.push({ callId, path: b.path, search: b.search });
    }
  }
  s.buf = [];
  s.mode = "out";
}

/** One of aider's own `> ` lines. */
function said(s: AiderState, text: string, line: SourceLine, out: RawRecord[]): void {
  const applied = APPLIED.exec(text);
  if (applied) {
    const path = applied[1]!;
    const mine = s.pending.filter((p) => p.path === path);
    // Aider applies a block that names a file wrongly to the file in the chat that holds its text.
    for (const p of mine.length > 0 ? mine : s.pending.slice(0, 1))
      editResult(s, p, line, `Applied edit to ${path}`, false, out);
    return;
  }
  if (FAILED_REPORT.test(text)) {
    s.mode = "report";
    return;
  }
  if (s.shell && (OUTPUT_ADDED.test(text) || RUN_FAILED.test(text))) {
    // `/test` adds its output only when the command failed; what `/run` printed, and how it ended, aider keeps not.
    shellResult(s, line, text, RUN_FAILED.test(text) || s.shell.test ? true : null, out);
    return;
  }
  const version = VERSION.exec(text);
  const model = version ? null : MODEL.exec(text);
  if (version || model)
    out.push({
      kind: "session",
      line: line.line,
      ts: s.ts,
      key: "session",
      sessionId: s.sessionId!,
      ...(model ? { model: model[1]!, meta: { edit_format: model[2]! } } : {}),
      ...(version ? { meta: { aider_version: version[1]! } } : {}),
    });
  else if (ERROR.test(text))
    out.push({ kind: "notice", line: line.line, ts: s.ts, key: `L${line.line}`, level: "error", text });
}

/** A line of aider's unquoted report of blocks that did not match; false once the report is over. */
function reportLine(s: AiderState, text: string, line: SourceLine, out: RawRecord[]): boolean {
  const f = s.failure;
  const head = NO_MATCH.exec(text);
  if (head) {
    closeFailure(s, line, out);
    s.failure = { path: head[1]!, part: "search", search: [], output: [text.replace(/^## /, "")] };
    return true;
  }
  if (REPORT_END.test(text)) {
    closeFailure(s, line, out);
    s.mode = "tail";
    return true;
  }
  if (s.mode === "tail") {
    if (OTHERS_APPLIED.test(text)) {
      for (const p of [...s.pending]) editResult(s, p, line, text.replace(/^# /, ""), false, out);
      return true;
    }
    return text.trim() === "" || TAIL.test(text);
  }
  if (!f) return text.trim() === "";
  f.output.push(text);
  if (f.part === "search") {
    if (DIVIDER.test(text)) f.part = "replace";
    else if (!SEARCH.test(text)) f.search.push(text);
  } else if (f.part === "replace" && REPLACE.test(text)) f.part = "after";
  return true;
}

function closeFailure(s: AiderState, line: SourceLine, out: RawRecord[]): void {
  const f = s.failure;
  s.failure = null;
  if (!f) return;
  const search = f.search.map((l) => `${l}\n`).join("");
  const p = s.pending.find((x) => x.path === f.path && x.search === search) ?? s.pending.find((x) => x.path === f.path);
  if (p) editResult(s, p, line, f.output.join("\n").trim(), true, out);
}

function editResult(
  s: AiderState,
  p: PendingEdit,
  line: SourceLine,
  output: string,
  failed: boolean,
  out: RawRecord[],
): void {
  s.pending = s.pending.filter((x) => x !== p);
  out.push({
    kind: "tool_result",
    line: line.line,
    ts: s.ts,
    key: `${p.callId}#result`,
    callId: p.callId,
    output,
    isError: failed,
    exitCode: null,
  });
}

function shellResult(s: AiderState, line: SourceLine, output: string, isError: boolean | null, out: RawRecord[]): void {
  const shell = s.shell!;
  s.shell = null;
  out.push({
    kind: "tool_result",
    line: line.line,
    ts: s.ts,
    key: `${shell.callId}#result`,
    callId: shell.callId,
    output,
    isError,
    exitCode: null,
  });
}
