/**
 * The normalizer folds a reader's record stream into the topology: events with stable ids and dense ordinals,
 * typed edges, entities and the derived events. Like the readers it is resumable: its state is plain JSON and
 * normalizing records in two batches equals normalizing them at once.
 */
import { cloneJson } from "../common/clone.ts";
import type {
  NoticeRecord,
  RawRecord,
  ResumePointRecord,
  SessionRecord,
  ToolCallRecord,
  ToolResultRecord,
  UsageRecord,
} from "../readers/types.ts";
import { checkOutcome } from "./checks.ts";
import { analyzeCommand, shellCommandOf } from "./command.ts";
import {
  type DecisionCandidate,
  type DecisionState,
  initialDecisionState,
  isPlanFile,
  onAssistantMessage,
  onUserMessage,
  planFileDecisions,
  recordDecision,
} from "./decisions.ts";
import { type ErrorSignature, errorSignature, fallbackSignature, topErrorLines } from "./error-signature.ts";
import { fileActionsOfShell, fileActionsOfTool } from "./file-actions.ts";
import { derivedEventId, sessionIdHasher } from "./ids.ts";
import type { NormalizerState, OpenRecord, PendingCall, TopologyBatch } from "./normalizer-state.ts";
import {
  closeRequest,
  initialTurnTracker,
  type OutcomeVerdict,
  onCall,
  onCheck,
  onReply,
  onRequest,
  onToolResult,
  outcomeMeta,
  type TurnTracker,
} from "./outcomes.ts";
import { type PastedSpan, pastedSpans, typedText } from "./pasted.ts";
import { pastedEvidence } from "./pasted-evidence.ts";
import { homeOf, normalizePath, projectOf } from "./paths.ts";
import { agentTitle, fallbackTitle, requestTitle, type TitleSource } from "./session-title.ts";
import { clip, estimateTokens, stripAnsi } from "./text.ts";
import { cleanToolOutput, renderInput, toolInputOf, workdirOf, writtenText } from "./tool-call-input.ts";
import {
  type Edge,
  type EdgeType,
  type Entity,
  type EntityKind,
  type EventType,
  entityId,
  type Meta,
  type SessionEvent,
  type SessionInfo,
  sessionNode,
  type UsageRow,
} from "./types.ts";
import { usageRow } from "./usage-row.ts";

const OPEN_LIMIT = 32;

/**
 * An error signature groups errors by their normalised text ("N.N npm error"); people read the error as it was
 * written, so the entity shows the first line it was seen as.
 */
function errorDisplay(line: string): string {
  return clip(line.replace(/\s+/g, " ").trim(), 200);
}

type EventFields = Partial<
  Pick<SessionEvent, "role" | "tool_name" | "command" | "file_path" | "status" | "parent_event_id">
> & {
  text: string;
  meta?: Meta;
};

export function normalize(
  records: readonly RawRecord[],
  state: NormalizerState,
): { batch: TopologyBatch; state: NormalizerState } {
  const n = new Normalizer(cloneJson(state));
  for (const r of records) n.add(r);
  return { batch: n.batch(), state: n.s };
}

class Normalizer {
  readonly s: NormalizerState;
  private readonly events: SessionEvent[] = [];
  private readonly edges: Edge[] = [];
  private readonly entities = new Map<string, Entity>();
  private readonly usage: UsageRow[] = [];
  /** Whether the session row changed in this batch. */
  private touched = false;
  private hasher: { sessionId: string; hash: (key: string) => string } | null = null;

  constructor(s: NormalizerState) {
    this.s = s;
  }

  batch(): TopologyBatch {
    const session = this.s.session;
    const sessions = this.touched && session ? [{ ...session, meta: { ...session.meta } }] : [];
    const entities = [...this.entities.values()];
    return { sessions, events: this.events, edges: this.edges, entities, usage: this.usage };
  }

  add(r: RawRecord): void {
    if (r.kind === "session") return this.session(r);
    const session = this.ensureSession(r.ts);
    // A call's tokens are bookkeeping, no event: the session's times stay those of what happened in it.
    if (r.kind === "usage") return this.callUsage(r);
    if (r.ts) {
      if (session.started_at === null) session.started_at = r.ts;
      if (session.updated_at === null || r.ts > session.updated_at) {
        session.updated_at = r.ts;
        this.touched = true;
      }
    }
    switch (r.kind) {
      case "message":
        return r.role === "assistant" ? this.assistant(r) : this.userSide(r);
      case "tool_call":
        return this.toolCall(r);
      case "tool_result":
        return this.toolResult(r);
      case "resume_point":
        return this.resumePoint(r);
      case "notice":
        return this.notice(r);
    }
  }

  /** A line never spans two batches, so the line's calls are numbered within the batch. */
  private callUsage(r: UsageRecord): void {
    const at = { session_id: this.s.session!.session_id, provider: this.s.provider, source_file: this.s.sourceFile };
    this.usage.push(usageRow(r, at, this.usage.at(-1)));
  }

  // ---- sessions ------------------------------------------------------------------------------------------------

  private session(r: SessionRecord): void {
    let info = this.s.session;
    if (info === null) {
      info = {
        session_id: r.sessionId,
        provider: this.s.provider,
        kind: r.sessionKind ?? "main",
        cwd: null,
        project: null,
        title: null,
        started_at: r.startedAt ?? r.ts ?? null,
        updated_at: r.ts ?? null,
        parent_session_id: null,
        git_branch: null,
        model: null,
        source_file: this.s.sourceFile,
        meta: {},
      };
      this.s.session = info;
    }
    if (r.sessionKind) info.kind = r.sessionKind;
    if (r.cwd) {
      info.cwd = r.cwd;
      info.project = projectOf(r.cwd);
    }
    const title = r.title ? agentTitle(r.title) : null;
    if (title !== null) this.title(title, "agent");
    else if (this.s.titleFrom === undefined || this.s.titleFrom === "fallback")
      this.title(fallbackTitle(info.provider, info.kind, info.project), "fallback");
    if (r.model) info.model = r.model;
    if (r.gitBranch) {
      info.git_branch = r.gitBranch;
      this.entity("branch", r.gitBranch, r.gitBranch);
      this.edge(sessionNode(info.session_id), entityId("branch", r.gitBranch), "on_branch");
    }
    if (r.parentSessionId) {
      info.parent_session_id = r.parentSessionId;
      this.edge(sessionNode(info.session_id), sessionNode(r.parentSessionId), "spawned_by");
    }
    if (r.startedAt && (info.started_at === null || r.startedAt < info.started_at)) info.started_at = r.startedAt;
    if (r.meta) info.meta = { ...info.meta, ...r.meta };
    this.touched = true;
  }

  /** The agent's title wins wherever it is written; a request only replaces the fallback. */
  private title(title: string, from: TitleSource): void {
    const info = this.s.session!;
    if (from !== "agent" && (this.s.titleFrom === "agent" || (from === "fallback" && this.s.titleFrom === "request")))
      return;
    if (info.title !== title) this.touched = true;
    info.title = title;
    this.s.titleFrom = from;
  }

  private ensureSession(ts: string | null): SessionInfo {
    if (this.s.session === null) {
      const stem = this.s.sourceFile.replace(/^.*[\\/]/, "").replace(/\.jsonl?$/, "");
      const meta = { id_from_file_name: true };
      this.session({ kind: "session", line: 0, ts, key: "session", sessionId: stem, meta });
    }
    return this.s.session!;
  }

  // ---- events --------------------------------------------------------------------------------------------------

  private idOf(key: string): string {
    const sid = this.s.session!.session_id;
    if (this.hasher === null || this.hasher.sessionId !== sid)
      this.hasher = { sessionId: sid, hash: sessionIdHasher(this.s.provider, sid) };
    return this.hasher.hash(key);
  }

  private place(r: RawRecord): { id: string; ordinal: number; turn: number; open: OpenRecord; isNew: boolean } {
    const id = this.idOf(r.key);
    if (r.update) {
      const open = this.s.open.find((o) => o.key === r.key);
      if (open) return { id, ordinal: open.ordinal, turn: open.turn, open, isNew: false };
    }
    const parent = r.parentKey ? this.idOf(r.parentKey) : null;
    const open: OpenRecord = {
      key: r.key,
      id,
      ordinal: this.s.ordinal++,
      turn: this.s.turn,
      line: r.line,
      ts: r.ts,
      parent,
      derived: {},
    };
    // Only messages and resume points are ever re-stated; tool records need no place in the state.
    if (r.kind === "message" || r.kind === "resume_point") {
      this.s.open.push(open);
      if (this.s.open.length > OPEN_LIMIT) this.s.open.shift();
    }
    return { id, ordinal: open.ordinal, turn: open.turn, open, isNew: true };
  }

  private emit(
    p: { id: string; ordinal: number; turn: number },
    type: EventType,
    line: number,
    ts: string | null,
    parent: string | null,
    fields: EventFields,
  ): SessionEvent {
    const ev: SessionEvent = {
      event_id: p.id,
      session_id: this.s.session!.session_id,
      provider: this.s.provider,
      ordinal: p.ordinal,
      timestamp: ts,
      role: fields.role ?? null,
      event_type: type,
      text: fields.text,
      tool_name: fields.tool_name ?? null,
      command: fields.command ?? null,
      file_path: fields.file_path ?? null,
      status: fields.status ?? null,
      parent_event_id: parent,
      source_file: this.s.sourceFile,
      source_line: line,
      turn: p.turn,
      tokens: estimateTokens(fields.text),
      meta: fields.meta ?? {},
    };
    this.events.push(ev);
    return ev;
  }

  /** A primary event: linked into the session's `next` chain and to its provider-tree parent. */
  private primary(
    r: RawRecord,
    type: EventType,
    fields: EventFields,
  ): { ev: SessionEvent; open: OpenRecord; isNew: boolean } {
    const p = this.place(r);
    const parent = fields.parent_event_id ?? p.open.parent;
    if (r.meta !== undefined) fields.meta = fields.meta === undefined ? r.meta : { ...r.meta, ...fields.meta };
    const ev = p.isNew
      ? this.emit(p, type, r.line, r.ts, parent, fields)
      : this.emit(p, type, p.open.line, p.open.ts ?? r.ts, parent, fields);
    if (p.isNew) {
      if (this.s.lastPrimary) this.edge(this.s.lastPrimary, p.id, "next");
      this.s.lastPrimary = p.id;
      // An explicit parent (a call's message, a result's call) is linked by its own edge type.
      if (parent && parent !== p.id && fields.parent_event_id === undefined) this.edge(p.id, parent, "parent");
    }
    return { ev, open: p.open, isNew: p.isNew };
  }

  /** A derived event: placed right after its source, with `derived_from` to it. */
  private derived(
    source: { ev: SessionEvent; open?: OpenRecord },
    kind: EventType,
    index: number,
    fields: EventFields,
  ): SessionEvent {
    const id = derivedEventId(source.ev.event_id, kind, index);
    let ordinal = source.open?.derived[id];
    if (ordinal === undefined) {
      ordinal = this.s.ordinal++;
      if (source.open) source.open.derived[id] = ordinal;
    }
    const ev = this.emit(
      { id, ordinal, turn: source.ev.turn },
      kind,
      source.ev.source_line,
      source.ev.timestamp,
      source.ev.event_id,
      fields,
    );
    this.edge(id, source.ev.event_id, "derived_from");
    return ev;
  }

  private edge(src: string, dst: string, type: EdgeType, meta?: Meta): void {
    this.edges.push(
      meta
        ? { src, dst, edge_type: type, session_id: this.s.session!.session_id, meta }
        : { src, dst, edge_type: type, session_id: this.s.session!.session_id },
    );
  }

  private entity(kind: EntityKind, key: string, display: string): string {
    const id = entityId(kind, key);
    if (!this.entities.has(id)) this.entities.set(id, { entity_id: id, kind, key, display });
    return id;
  }

  // ---- messages ------------------------------------------------------------------------------------------------

  private userSide(r: Extract<RawRecord, { kind: "message" }>): void {
    const typed = r.typed && r.role === "user";
    // A notebook page is kept as a message of its own (role system): the notebook, no one's request or decision.
    const notebook = r.meta?.["notebook"] === true;
    if (!typed && !notebook && r.meta?.["dequeued"] !== true) return this.harness(r, r.text, null);
    if (typed && !r.update) this.s.turn++;
    // What the person pasted (logs, traces, JSON, diffs) is kept and marked; their rules read only what they typed.
    const spans = typed ? pastedSpans(r.text) : [];
    const src = this.primary(r, "user_message", {
      role: typed ? "user" : "system",
      text: r.text,
      ...(spans.length > 0 ? { meta: { pasted: spans } } : {}),
    });
    // A re-stated message was read when it was first seen.
    if (r.update && !src.isNew) return;
    if (typed) {
      const words = typedText(r.text, spans);
      const candidates = onUserMessage(this.decisionState(), words);
      this.decisions(src, candidates);
      const pastedFailures = this.pasted(src, r.text, spans);
      // A bare slash command asks for nothing: the request before it stays open.
      if (!/^\/[\w:.-]*$/.test(words.trim())) {
        const title = this.s.titleFrom === "fallback" ? requestTitle(words) : null;
        if (title !== null) this.title(title, "request");
        const corrects = candidates.some((d) => d.rejectsPrevious === true);
        this.outcome(
          src,
          closeRequest(this.tracker(), {
            id: src.ev.event_id,
            typed: words,
            text: r.text,
            corrects,
            pastedFailures,
          }),
        );
        onRequest(this.tracker(), src.ev.event_id, src.ev.turn, words);
      }
    }
  }

  /**
   * Text the harness wrote into the conversation that nobody typed: injected context (`<environment_context>`,
   * AGENTS.md, developer instructions, Claude's `isMeta` caveats and reminders), extension messages, and notices
   * such as "[Request interrupted by user]". It is kept as a `tool_result` without a call, role `system` (or
   * `developer`), `meta.harness`: output of the harness, so a filter on user messages returns only what people wrote.
   */
  private harness(r: RawRecord, text: string, notice: string | null): void {
    const role = r.kind === "message" && r.role !== "user" ? r.role : "system";
    this.primary(r, "tool_result", {
      role,
      text: stripAnsi(text),
      meta: notice === null ? { harness: true } : { harness: true, notice },
    });
  }

  private assistant(r: Extract<RawRecord, { kind: "message" }>): void {
    // A turn that was aborted or failed says so in its status; an empty one shows why instead of nothing.
    const stop = r.meta?.["stop_reason"];
    const status = stop === "aborted" ? "aborted" : stop === "error" || r.meta?.["api_error"] === true ? "error" : null;
    const why = r.meta?.["error_message"];
    const text = r.text === "" && typeof why === "string" ? why : r.text;
    const src = this.primary(r, "assistant_message", { role: "assistant", text, ...(status ? { status } : {}) });
    this.s.lastAssistant = { id: src.ev.event_id, turn: src.ev.turn };
    // A reasoning summary is the agent thinking, not what it told the user.
    if (r.meta?.["reasoning"] === true) return;
    onReply(this.tracker(), src.ev.event_id, text, status !== null);
    const read = src.open.decisionsRead;
    // A message written over several lines is read again when its text grows, with the same derived ids.
    const candidates = onAssistantMessage(this.decisionState(), r.text, src.ev.turn, read ? read.restates : undefined);
    if (!read && r.text.trim() !== "") src.open.decisionsRead = { restates: candidates[0]?.restates ?? null };
    this.decisions(src, candidates);
  }

  /**
   * Failures in what the user pasted: a `test_result` when the paste shows a check's run (its command or a test
   * report), an `error` with its signature when it shows an error line, both derived from the user's message.
   * Returns the ids of the errors (what a request's failed outcome cites beside the message).
   */
  private pasted(src: { ev: SessionEvent; open?: OpenRecord }, text: string, spans: readonly PastedSpan[]): string[] {
    let tests = 0;
    const failing: string[] = [];
    let errors = 0;
    for (const [k, span] of spans.entries()) {
      // Code and diffs are what the person wants written, not what ran.
      if (span.kind === "code" || span.kind === "diff") continue;
      const ev = pastedEvidence(text, span);
      const where = { span: k, ...(ev.command ? { pasted_command: ev.command } : {}) };
      if (ev.check && ev.family && ev.check.status !== "unknown") {
        const report = ev.check.report;
        this.derived(src, "test_result", tests++, {
          role: "user",
          text: ev.check.text,
          command: ev.canonical,
          status: ev.check.status,
          meta: {
            family: ev.family,
            runner: report?.runner ?? null,
            passed: report?.passed ?? null,
            failed: report?.failed ?? null,
            skipped: report?.skipped ?? null,
            failing_tests: report?.failing ?? [],
            error_lines: report?.errors.length ? report.errors : ev.error ? [ev.error.line, ...ev.error.more] : [],
            pasted: true,
            ...where,
          },
        });
      }
      if (!ev.error || ev.check?.status === "pass") continue;
      const sig = ev.error;
      const error = this.derived(src, "error", errors++, {
        role: "user",
        text: sig.more.length > 0 ? `${sig.line}\n${sig.more.slice(0, 4).join("\n")}` : sig.line,
        command: ev.canonical,
        status: "error",
        meta: {
          signature: sig.signature,
          ...(sig.code ? { code: sig.code } : {}),
          ...(ev.family ? { family: ev.family } : {}),
          pasted: true,
          ...where,
        },
      });
      this.edge(src.ev.event_id, this.entity("error_signature", sig.signature, errorDisplay(sig.line)), "fails_with");
      failing.push(error.event_id);
    }
    return failing;
  }

  private tracker(): TurnTracker {
    this.s.outcomes ??= initialTurnTracker();
    return this.s.outcomes;
  }

  /**
   * The outcome of a request, known once the next request arrives: an `outcome` event derived from the request,
   * placed where it became known, with `evidence` edges to what it rests on.
   */
  private outcome(at: { ev: SessionEvent; open?: OpenRecord }, v: OutcomeVerdict | null): void {
    if (!v) return;
    const id = derivedEventId(v.request, "outcome", 0);
    let ordinal = at.open?.derived[id];
    if (ordinal === undefined) {
      ordinal = this.s.ordinal++;
      if (at.open) at.open.derived[id] = ordinal;
    }
    this.emit({ id, ordinal, turn: v.turn }, "outcome", at.ev.source_line, at.ev.timestamp, v.request, {
      role: "system",
      text: `${v.outcome} (${v.why}): ${v.text}`,
      status: v.outcome,
      meta: { ...outcomeMeta(v), closed_by: at.ev.event_id },
    });
    this.edge(id, v.request, "derived_from");
    for (const e of v.evidence) this.edge(id, e, "evidence");
  }

  private decisionState(): DecisionState {
    this.s.decisions ??= initialDecisionState();
    return this.s.decisions;
  }

  /** Decision events derived from a message or a written plan, each linked to the one it supersedes. */
  private decisions(
    src: { ev: SessionEvent; open?: OpenRecord },
    candidates: DecisionCandidate[],
    role?: string,
  ): void {
    candidates.forEach((d, i) => {
      const id = derivedEventId(src.ev.event_id, "decision", i);
      const { supersedes } = recordDecision(this.decisionState(), d, id, src.ev.turn);
      const meta: Meta = { rule: d.rule, who: d.who };
      if (d.chosen) meta["chosen"] = d.chosen;
      if (d.rejected) meta["rejected"] = d.rejected;
      if (d.restates) meta["restates"] = d.restates;
      if (supersedes) meta["supersedes"] = supersedes;
      const ev = this.derived(src, "decision", i, { role: role ?? src.ev.role, text: d.text, meta });
      this.edge(sessionNode(ev.session_id), ev.event_id, "decision");
      if (supersedes) this.edge(ev.event_id, supersedes, "supersedes");
    });
  }

  // ---- tools ---------------------------------------------------------------------------------------------------

  private toolCall(r: ToolCallRecord): void {
    const session = this.s.session!;
    const input = r.input;
    const command = shellCommandOf(r.name, input);
    const info = command !== null ? analyzeCommand(command) : null;
    const workdir = workdirOf(input) ?? session.cwd;
    // `~` is the session's home, which its cwd shows more surely than a call's working directory.
    const home = session.cwd !== null && workdir !== session.cwd ? homeOf(session.cwd) : null;
    const rawActions = info !== null ? fileActionsOfShell(info.items) : fileActionsOfTool(r.name, input);
    const files: PendingCall["files"] = [];
    for (const a of rawActions) {
      const np = normalizePath(a.path, workdir, home);
      if (!np) continue;
      const to = a.to ? normalizePath(a.to, workdir, home) : null;
      files.push({ ...a, key: np.key, display: np.display, ...(to ? { to: to.display, toKey: to.key } : {}) });
    }
    const text = command ?? renderInput(input);
    const typed = toolInputOf(r.name, input);
    const userInitiated = r.meta?.["user_initiated"] === true;
    // Without a format link, a call belongs to the turn's last assistant message, unless the user ran it.
    const messageId = r.messageKey
      ? this.idOf(r.messageKey)
      : !userInitiated && this.s.lastAssistant && this.s.lastAssistant.turn === this.s.turn
        ? this.s.lastAssistant.id
        : null;
    // A call hangs off the assistant message that issued it (the `calls` edge); only without one does the
    // provider's tree parent stand in.
    const src = this.primary(r, "tool_call", {
      role: "assistant",
      text,
      tool_name: r.name,
      command: command,
      file_path: files[0]?.key ?? null,
      meta: { call_id: r.callId, input: typed, ...(info?.family ? { family: info.family } : {}) },
      ...(messageId ? { parent_event_id: messageId } : {}),
    });
    if (messageId) this.edge(messageId, src.ev.event_id, "calls");
    if (!userInitiated) onCall(this.tracker());
    for (const f of files) {
      this.edge(src.ev.event_id, this.entity("file", f.key, f.display), "touches", { op: f.op });
      if (f.toKey)
        this.edge(src.ev.event_id, this.entity("file", f.toKey, f.to ?? f.toKey), "touches", { op: "move_target" });
    }
    if (info) this.edge(src.ev.event_id, this.entity("command", info.canonical, clip(info.canonical, 200)), "runs");
    let planText: string | null = null;
    const written = files.find((f) => (f.op === "write" || f.op === "edit") && isPlanFile(f.display));
    if (written && command === null) planText = writtenText(input);
    this.s.calls[r.callId] = {
      id: src.ev.event_id,
      name: r.name,
      turn: this.s.turn,
      command,
      canonical: info?.canonical ?? null,
      family: info?.family ?? null,
      ...(info?.exitMasked ? { masked: true } : {}),
      ...(info?.scriptTail ? { scriptTail: true } : {}),
      files,
      planText,
      userInitiated,
      ...(typed.kind === "read" ? { read: true } : {}),
    };
  }

  private toolResult(r: ToolResultRecord): void {
    const call = this.s.calls[r.callId];
    if (call) delete this.s.calls[r.callId];
    // Output is stored for people and search: terminal colour codes and injected reminders are noise there.
    const { text: output, reminders } = cleanToolOutput(stripAnsi(r.output), call?.read === true);
    const failed = r.isError === true || (r.exitCode !== null && r.exitCode !== 0);
    const succeeded = !failed && (r.isError === false || r.exitCode === 0);
    const status = failed ? "error" : succeeded || call?.command === null ? "ok" : "unknown";
    const meta: Meta = { call_id: r.callId, ...(reminders > 0 ? { reminders } : {}) };
    if (r.exitCode !== null) meta["exit_code"] = r.exitCode;
    const toolName = call?.name ?? (typeof r.meta?.["tool_name"] === "string" ? (r.meta["tool_name"] as string) : null);
    const src = this.primary(r, "tool_result", {
      role: "tool",
      text: output,
      tool_name: toolName,
      command: call?.command ?? null,
      file_path: call?.files[0]?.key ?? null,
      status,
      meta,
      ...(call ? { parent_event_id: call.id } : {}),
    });
    if (!call) {
      if (failed) this.error(src, output, { tool_name: toolName, command: null });
      return;
    }
    this.edge(call.id, src.ev.event_id, "result");
    // A failing check's output is read for its error line by the test result and the error event alike: once.
    const scan = scanOf(output);
    const check =
      call.family !== null
        ? checkOutcome({
            family: call.family,
            canonical: call.canonical ?? "",
            output,
            failed,
            known: r.exitCode !== null || r.isError !== null,
            masked: call.masked === true,
            scriptTail: call.scriptTail === true,
            errorLine: () => scan.signature()?.line ?? null,
          })
        : null;
    let index = 0;
    for (const f of call.files) {
      this.derived(src, "file_action", index++, {
        role: "tool",
        text: f.to ? `${f.op} ${f.display} → ${f.to}` : `${f.op} ${f.display}`,
        tool_name: call.name,
        file_path: f.key,
        status: failed ? "error" : "ok",
        meta: {
          op: f.op,
          ...(f.to ? { to: f.toKey } : {}),
          ...(f.added !== undefined ? { added: f.added } : {}),
          ...(f.removed !== undefined ? { removed: f.removed } : {}),
          via: call.command !== null ? "shell" : "tool",
        },
      });
    }
    if (call.command !== null) {
      // When the exit status is a filter's, the check's outcome is the command's.
      const commandStatus =
        check && call.masked
          ? check.status === "fail"
            ? "error"
            : check.status === "pass"
              ? "ok"
              : "unknown"
          : failed
            ? "error"
            : status;
      this.derived(src, "command", 0, {
        role: call.userInitiated ? "user" : "tool",
        text: call.command,
        tool_name: call.name,
        command: call.canonical,
        status: commandStatus,
        meta: {
          ...(r.exitCode !== null ? { exit_code: r.exitCode } : {}),
          ...(call.family ? { family: call.family } : {}),
          ...(call.masked ? { exit_masked: true } : {}),
          ...(call.userInitiated ? { user_initiated: true } : {}),
        },
      });
    }
    if (check) {
      const report = check.report;
      this.derived(src, "test_result", 0, {
        role: "tool",
        text: check.text,
        tool_name: call.name,
        command: call.canonical,
        status: check.status,
        meta: {
          family: call.family,
          runner: report?.runner ?? null,
          passed: report?.passed ?? null,
          failed: report?.failed ?? null,
          skipped: report?.skipped ?? null,
          failing_tests: report?.failing ?? [],
          error_lines: report?.errors.length ? report.errors : check.status === "fail" ? scan.topLines() : [],
          ...(r.exitCode !== null ? { exit_code: r.exitCode } : {}),
          ...(call.masked ? { exit_masked: true } : {}),
        },
      });
    }
    if (call.planText && !failed) this.decisions(src, planFileDecisions(call.planText), "tool");
    // The work a request caused: checks, and calls that change files or run a check (looking around is not work).
    const work = call.family !== null || call.files.some((f) => f.op !== "read") || call.userInitiated;
    // A call the user declined failed by their choice, not the work's: their next words say what they want instead.
    if (work)
      onToolResult(
        this.tracker(),
        src.ev.event_id,
        (failed && !DECLINED.test(output.slice(0, 300))) || (call.masked === true && check?.status === "fail"),
      );
    if (check) onCheck(this.tracker(), derivedEventId(src.ev.event_id, "test_result", 0), check.status);
    // A check whose output shows a failure the exit status hid fails all the same.
    if (failed || (call.masked && check?.status === "fail"))
      this.error(src, output, { tool_name: toolName, command: call.canonical ?? null }, scan);
  }

  private error(
    src: { ev: SessionEvent; open?: OpenRecord },
    output: string,
    ctx: { tool_name: string | null; command: string | null },
    scan: OutputScan = scanOf(output),
  ): void {
    const sig = scan.signature() ??
      fallbackSignature(output) ?? {
        signature: `${ctx.tool_name ?? "tool"} failed`,
        line: `${ctx.tool_name ?? "tool"} failed`,
        code: null,
      };
    // The text keeps the first few distinct error lines (a type check reports many codes); the signature is the first.
    const more = scan.topLines().filter((l) => l !== sig.line);
    this.derived(src, "error", 0, {
      role: "tool",
      text: more.length > 0 ? `${sig.line}\n${more.slice(0, 4).join("\n")}` : sig.line,
      tool_name: ctx.tool_name,
      command: ctx.command,
      status: "error",
      meta: { signature: sig.signature, ...(sig.code ? { code: sig.code } : {}) },
    });
    const ent = this.entity("error_signature", sig.signature, errorDisplay(sig.line));
    this.edge(src.ev.event_id, ent, "fails_with");
  }

  // ---- resume points and notices ---------------------------------------------------------------------------------

  private resumePoint(r: ResumePointRecord): void {
    const src = this.primary(r, "resume_point", { role: "system", text: r.text, meta: { kind: r.pointKind } });
    if (src.isNew) this.edge(sessionNode(src.ev.session_id), src.ev.event_id, "resume_point");
  }

  private notice(r: NoticeRecord): void {
    if (r.level !== "error") return this.harness(r, r.text, r.level);
    const text = stripAnsi(r.text);
    const sig = errorSignature(text) ?? fallbackSignature(text);
    const fields: EventFields = {
      role: "system",
      text,
      status: "error",
      meta: {
        ...r.meta,
        ...(sig ? { signature: sig.signature, ...(sig.code ? { code: sig.code } : {}) } : {}),
      },
    };
    let id: string;
    if (r.aboutKey) {
      // An error about a known record (an assistant turn that failed) is derived from it: it hangs off that record
      // and keeps the id of its own key.
      const p = this.place(r);
      const about = this.idOf(r.aboutKey);
      this.emit(p, "error", r.line, r.ts, about, fields);
      this.edge(p.id, about, "derived_from");
      id = p.id;
    } else id = this.primary(r, "error", fields).ev.event_id;
    if (sig) this.edge(id, this.entity("error_signature", sig.signature, errorDisplay(sig.line)), "fails_with");
  }
}

/** A tool result saying the user declined the call (Claude Code's "doesn't want to proceed", a rejected edit). */
const DECLINED =
  /^\s*(?:the user doesn'?t want to proceed with this tool use|(?:the )?tool use was rejected|(?:rejected|declined|denied) by (?:the )?user|user (?:rejected|declined|denied) (?:the|this) (?:tool|edit|command|call))/i;

/** The error lines of one output, each read at most once and only when asked for. */
interface OutputScan {
  signature(): ErrorSignature | null;
  topLines(): string[];
}

function scanOf(output: string): OutputScan {
  let signature: ErrorSignature | null | undefined;
  let top: string[] | undefined;
  return {
    signature: () => {
      if (signature === undefined) signature = errorSignature(output);
      return signature;
    },
    topLines: () => (top ??= topErrorLines(output)),
  };
}
