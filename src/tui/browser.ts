/**
 * The terminal UI's state and what each key does: the session list or search results on the left, the open
 * session's Timeline, Event, Brief and Conversation tabs on the right, and the Usage of all history beside them. It reads only through the application layer; drawing is
 * `layout.ts`'s, the terminal `run.ts`'s.
 */
import { Input, matchesKey } from "@earendil-works/pi-tui";
import type { AskService } from "../app/ask-service.ts";
import type { ReadCairn, SearchAnswer, Shaped } from "../app/cairn.ts";
import type { WeekUsage } from "../app/catalog/usage.ts";
import type { EventWithChain } from "../app/event-chain.ts";
import type { TimelineRow } from "../search/timeline.ts";
import type { SessionRow } from "../store/types.ts";
import { type AiResumeState, type AskState, startAiResume, startAsk } from "./ask-pane.ts";
import type { ConversationLine } from "./conversation-lines.ts";
import { type ConversationTab, newConversationTab, settleConversation, toggleAt } from "./conversation-tab.ts";
import { Cursor } from "./cursor.ts";
import { type Lines, NO_LINES } from "./lines.ts";
import { type HitPreview, readPreview } from "./preview.ts";
import type { TuiBrief } from "./search-run.ts";
import { inThreadSearch, type SearchBackend } from "./search-thread.ts";
import { Searcher, type SearchOutcome } from "./searcher.ts";
import type { Style } from "./style.ts";
import type { SessionThreads } from "./threads-tab.ts";
import { TimelineView } from "./timeline-window.ts";
import { type UsageTab, usageGroupingFor } from "./usage-tab.ts";

export const TABS = ["timeline", "event", "brief", "threads", "ask", "conversation", "usage"] as const;
export type Tab = (typeof TABS)[number];
export type Focus = "left" | "right" | "search" | "ask";

/** What the UI asks of its surroundings: the terminal's height, redraws, the clipboard, files, quitting. */
export interface BrowserHost {
  rows(): number;
  requestRender(): void;
  /** Puts text on the clipboard; returns where it went, for the status line. */
  copy(text: string): string;
  /** Writes the session's export; returns the path. */
  exportSession(sessionId: string): Promise<string>;
  quit(then?: { resume: string[] }): void;
}

/** A key that acts on what is selected (`actions.ts`); returns what the footer should say, or null. */
export type BrowserAction = (b: Browser, host: BrowserHost) => string | null | Promise<string | null>;

/** What the browser is built with besides the app: its action keys, where searches run, the model service. */
export interface BrowserParts {
  actions?: Readonly<Record<string, BrowserAction>>;
  search?: SearchBackend;
  ask?: AskService;
}

export interface Filters {
  agent: string | null;
  project: string | null;
  since: string | null;
}

const SINCE = [null, "1d", "7d", "30d"] as const;

export class Browser {
  focus: Focus = "left";
  tab: Tab = "timeline";
  help = false;
  /** The right pane drawn over the whole width (`z`); the left pane taking the focus back ends it. */
  zoom = false;
  status = "";
  confirm: { prompt: string; argv: string[] } | null = null;
  readonly filters: Filters = { agent: null, project: null, since: null };
  sessions: SessionRow[] = [];
  readonly sessionCursor = new Cursor();
  results: SearchOutcome | null = null;
  readonly hitCursor = new Cursor();
  readonly input = new Input({ prompt: "/ ", placeholder: "search: words, error:, test:fail, decision:, file:…" });
  open: Shaped<SessionRow> | null = null;
  view: TimelineView | null = null;
  event: EventWithChain | null = null;
  brief: { sessionId: string; text: string | null; view: TuiBrief["view"] | null; error: string | null } | null = null;
  threads: SessionThreads | null = null;
  conversation: ConversationTab | null = null;
  usage: UsageTab | null = null;
  /** This week's spend, for the header (read in the search thread at the start; absent until then, or unknown). */
  week: Shaped<WeekUsage> | null = null;
  readonly askInput = new Input({ prompt: "ask: ", placeholder: "a question about your agents' work" });
  /** The session the question being typed is limited to, or null for all history. */
  askScope: string | null = null;
  asked: AskState | null = null;
  aiResume: AiResumeState | null = null;
  readonly cursors: Record<Tab, Cursor> = {
    timeline: new Cursor(),
    event: new Cursor(),
    brief: new Cursor(),
    threads: new Cursor(),
    ask: new Cursor(),
    conversation: new Cursor(),
    usage: new Cursor(),
  };
  /** The right pane's lines as last drawn (they depend on the width): what Enter and n/N act on. */
  shown: Lines = NO_LINES;
  private readonly searcher: Searcher;
  private preview: HitPreview | null = null;
  private agents: string[] = [];
  /** What the session list was last read at (`sessionsStamp`). */
  private listStamp = "";
  private projects: string[] = [];

  readonly app: ReadCairn;
  readonly style: Style;
  readonly host: BrowserHost;
  private readonly actions: Readonly<Record<string, BrowserAction>>;
  private readonly askService: AskService | null;
  private readonly work: SearchBackend;

  constructor(app: ReadCairn, style: Style, host: BrowserHost, parts: BrowserParts = {}) {
    this.app = app;
    this.style = style;
    this.host = host;
    this.actions = parts.actions ?? {};
    this.askService = parts.ask ?? null;
    const search = parts.search ?? inThreadSearch(app, {});
    this.work = search;
    this.searcher = new Searcher(
      search,
      (outcome) => {
        // The same question ranked again with meaning keeps the selected hit where it can.
        const kept =
          this.results?.query === outcome.query ? this.results.answer?.hits[this.hitCursor.index]?.event_id : undefined;
        this.results = outcome;
        this.hitCursor.count = 0;
        this.hitCursor.setCount(outcome.answer?.hits.length ?? 0);
        this.hitCursor.moveTo(Math.max(0, outcome.answer?.hits.findIndex((h) => h.event_id === kept) ?? 0));
        host.requestRender();
      },
      () => host.requestRender(),
    );
    this.input.onSubmit = () => this.leaveInput();
    this.loadSessions();
    // The header's spend is a courtesy: a report that fails leaves it out.
    this.work.week().then(
      (week) => {
        this.week = week;
        host.requestRender();
      },
      () => {},
    );
    const all = app.sessions({ limit: 500 });
    this.agents = [...new Set(all.map((s) => s.provider))].sort();
    this.projects = [...new Set(all.map((s) => s.project).filter((p): p is string => p !== null))].sort();
  }

  /** The selected hit in its session, while the results have the focus; read again only when the selection moves. */
  hitPreview(): HitPreview | null {
    if (!this.results || this.focus === "right" || this.focus === "ask") return null;
    const hit = this.results.answer?.hits[this.hitCursor.index];
    if (!hit) return null;
    if (this.preview?.eventId !== hit.event_id) this.preview = readPreview(this.app, hit);
    return this.preview;
  }

  /** Whether a search for the latest text is still to be answered. */
  get searching(): boolean {
    return this.searcher.waiting;
  }

  /** Stops the search thread and any answer being written. */
  close(): void {
    this.searcher.close();
    this.asked?.controller.abort();
    this.aiResume?.controller.abort();
  }

  /** The query as sent: the filters as the query language's own words, then what was typed. */
  query(): string {
    const f = this.filters;
    const words = [
      f.agent ? `provider:${f.agent}` : "",
      f.project ? `project:${f.project}` : "",
      f.since ? `since:${f.since}` : "",
      this.input.getValue().trim(),
    ];
    return words.filter(Boolean).join(" ");
  }

  loadSessions(): void {
    const f = this.filters;
    const keep = this.sessions[this.sessionCursor.index]?.session_id;
    this.sessions = this.app.sessions({
      limit: 500,
      ...(f.agent ? { provider: [f.agent] } : {}),
      ...(f.project ? { project: [f.project] } : {}),
      ...(f.since ? { since: f.since } : {}),
    });
    this.sessionCursor.setCount(this.sessions.length);
    const at = this.sessions.findIndex((s) => s.session_id === keep);
    if (at >= 0) this.sessionCursor.moveTo(at);
  }

  /** Opens a session's timeline, at an event or at its end (where the work stopped). */
  openSession(sessionId: string, at?: { event_id: string; ordinal: number }): void {
    this.open = this.app.session(sessionId);
    const view = new TimelineView(this.app, this.open.session_id);
    this.view = view;
    this.event = null;
    this.brief = null;
    this.threads = null;
    this.conversation = null;
    for (const c of Object.values(this.cursors)) c.moveTo(0);
    let index: number;
    if (at) index = view.loadAround(at);
    else {
      view.loadEnd();
      index = view.rows.length - 1;
    }
    const cursor = this.cursors.timeline;
    cursor.setCount(view.rows.length);
    cursor.moveTo(index);
    this.tab = "timeline";
    this.focus = "right";
  }

  /** Follows new events of the open session (and new sessions), for a live index. */
  poll(withSessions: boolean): void {
    if (this.open) {
      const now = this.app.session(this.open.session_id);
      if (now.event_count !== this.open.event_count || now.updated_at !== this.open.updated_at) {
        this.open = now;
        this.view?.refresh();
        this.cursors.timeline.setCount(this.timeline.length, true);
        this.host.requestRender();
      }
    }
    if (withSessions && !this.results) {
      // The list is read again only when a session was added or grew: any that grows becomes the latest updated.
      const stamp = this.sessionsStamp();
      if (stamp === this.listStamp) return;
      this.listStamp = stamp;
      const before = this.sessions.map((s) => `${s.session_id}:${s.event_count}`).join();
      this.loadSessions();
      if (this.sessions.map((s) => `${s.session_id}:${s.event_count}`).join() !== before) this.host.requestRender();
    }
  }

  /** The number of sessions and the latest updated one's id, size and time: cheap to read on every poll. */
  private sessionsStamp(): string {
    const latest = this.app.sessions({ limit: 1, all: true })[0];
    return `${this.app.reader().sessionCount()} ${latest?.session_id}:${latest?.event_count}:${latest?.updated_at}`;
  }

  /** The rows of the open session's timeline read so far. */
  get timeline(): TimelineRow[] {
    return this.view?.rows ?? [];
  }

  /** Shows an event in the timeline of its session (opening it when it is another). */
  jumpTo(ref: string): void {
    const sessionId = this.open?.session_id;
    let e: ReturnType<ReadCairn["resolveEvent"]>;
    try {
      e = this.app.resolveEvent({ event_id: ref, ...(sessionId ? { session_id: sessionId } : {}) });
    } catch {
      e = this.app.resolveEvent(ref);
    }
    if (e.session_id !== sessionId) this.openSession(e.session_id, e);
    else {
      const index = this.view!.loadAround(e);
      this.cursors.timeline.setCount(this.timeline.length);
      this.cursors.timeline.moveTo(index);
      this.tab = "timeline";
      this.focus = "right";
    }
    this.status = `at [e:${ref}] @${e.ordinal} ${e.event_type}`;
  }

  showEvent(ref: string): void {
    this.event = this.app.eventChain(ref);
    this.cursors.event.moveTo(0);
    this.tab = "event";
    this.focus = "right";
  }

  showTab(tab: Tab): void {
    const open = this.open;
    if (!open && tab !== "ask" && tab !== "usage") return;
    this.tab = tab;
    this.focus = "right";
    // Read again each time it is shown: a live index keeps counting.
    if (tab === "usage") return this.loadUsage(this.usage?.by ?? "day");
    if (!open) return;
    if (tab === "event" && !this.event) {
      const row = this.timeline[this.cursors.timeline.index];
      if (row) this.showEvent(row.event_id);
    }
    if (tab === "brief" && this.brief?.sessionId !== open.session_id) this.loadBrief(open.session_id);
    if (tab === "threads" && this.threads?.sessionId !== open.session_id) this.loadThreads(open.session_id);
    // First shown, the conversation opens where the timeline is (its end, or the row or hit it was opened at).
    if (tab === "conversation" && this.conversation?.sessionId !== open.session_id)
      this.loadConversation(open.session_id, this.timeline[this.cursors.timeline.index]?.event_id ?? null);
  }

  /** The Conversation tab of a session (opened when it is another), at the block holding the event `at`. */
  openConversation(sessionId: string, at: string | null): void {
    if (this.open?.session_id !== sessionId)
      this.openSession(sessionId, at ? { event_id: at, ordinal: ordinalOf(this, at) } : undefined);
    this.tab = "conversation";
    this.focus = "right";
    this.loadConversation(sessionId, at);
  }

  private loadConversation(sessionId: string, at: string | null): void {
    const kept = this.conversation?.sessionId === sessionId ? this.conversation : null;
    const mine = newConversationTab(sessionId);
    // Asked again at another event, the conversation keeps what was opened in it.
    for (const key of kept?.open ?? []) mine.open.add(key);
    this.conversation = mine;
    this.cursors.conversation.moveTo(0);
    this.work.conversation(sessionId, at).then(
      (answer) => {
        if (this.conversation === mine) settleConversation(mine, answer);
        this.host.requestRender();
      },
      (error: unknown) => {
        mine.error = error instanceof Error ? error.message : String(error);
        this.host.requestRender();
      },
    );
  }

  /**
   * `c`: from a hit, a session, a timeline row, an event or a citation to its place in the conversation; from the
   * conversation back to the timeline at the selected block.
   */
  private conversationKey(): void {
    if (this.focus === "left") {
      const hit = this.results?.answer?.hits[this.hitCursor.index];
      if (this.results) return hit ? this.openConversation(hit.session_id, hit.event_id) : undefined;
      const s = this.sessions[this.sessionCursor.index];
      if (!s) return;
      if (this.open?.session_id !== s.session_id) this.openSession(s.session_id);
      return this.showTab("conversation");
    }
    if (!this.open) return;
    if (this.tab === "conversation") {
      // A blank line between blocks belongs to the one above it.
      let block: string | undefined;
      for (let i = this.cursors.conversation.index; i >= 0 && block === undefined; i--)
        block = (this.shownLine(i) as ConversationLine | undefined)?.block;
      if (block && !block.startsWith("s-")) this.jumpTo(block);
      return;
    }
    const target = this.tab === "event" && this.event ? this.event.event.event_id : this.selectedTarget();
    if (!target) return this.showTab("conversation");
    const session = this.app.resolveEvent(target).session_id;
    this.openConversation(session, target);
  }

  private shownLine(index: number): ConversationLine | undefined {
    return index >= 0 && index < this.shown.count ? this.shown.line(index) : undefined;
  }

  /** Reads the usage report in the search thread, keeping what is shown of the same grouping until it comes. */
  private loadUsage(by: UsageTab["by"]): void {
    const same = this.usage?.by === by ? this.usage : null;
    const mine: UsageTab = { by, answer: same?.answer ?? null, error: null, pending: same === null };
    this.usage = mine;
    this.work.usage(by).then(
      (answer) => {
        if (this.usage !== mine) return;
        mine.answer = answer;
        this.host.requestRender();
      },
      (error: unknown) => {
        mine.error = error instanceof Error ? error.message : String(error);
        this.host.requestRender();
      },
    );
  }

  /** Reads the session's threads in the search thread: on a large index that walks every session for seconds. */
  private loadThreads(sessionId: string): void {
    const mine: SessionThreads = { sessionId, threads: null, error: null };
    this.threads = mine;
    this.cursors.threads.moveTo(0);
    this.work.threads(sessionId).then(
      (read) => {
        if (this.threads === mine) this.threads = read;
        this.host.requestRender();
      },
      (error: unknown) => {
        mine.error = error instanceof Error ? error.message : String(error);
        this.host.requestRender();
      },
    );
  }

  private loadBrief(sessionId: string): void {
    const mine: NonNullable<Browser["brief"]> = { sessionId, text: null, view: null, error: null };
    this.brief = mine;
    this.cursors.brief.moveTo(0);
    // In the search thread: a brief reads the session whole, which held keys on a long one.
    this.work.brief(sessionId).then(
      (brief) => {
        mine.text = brief.text;
        mine.view = brief.view;
        this.host.requestRender();
      },
      (error: unknown) => {
        mine.error = error instanceof Error ? error.message : String(error);
        this.host.requestRender();
      },
    );
  }

  handleInput(data: string): void {
    try {
      this.onKey(data);
    } catch (error) {
      this.status = this.style.red(error instanceof Error ? error.message : String(error));
    }
    this.host.requestRender();
  }

  private onKey(data: string): void {
    if (matchesKey(data, "ctrl+c")) return this.host.quit();
    if (this.confirm) {
      const { argv } = this.confirm;
      this.confirm = null;
      this.status = "";
      if (matchesKey(data, "enter")) this.host.quit({ resume: argv });
      return;
    }
    if (this.focus === "search") return this.onSearchKey(data);
    if (this.focus === "ask") return this.onAskKey(data);
    this.status = "";
    if (data === "?") {
      this.help = !this.help;
      return;
    }
    if (this.help && (data === "q" || matchesKey(data, "escape"))) {
      this.help = false;
      return;
    }
    if (data === "z") return this.toggleZoom();
    if (data === "/") return this.enterInput();
    if (data === "A") return this.enterAsk();
    if (data === "R") return this.runAiResume();
    if (matchesKey(data, "tab") || matchesKey(data, "shift+tab")) {
      this.focus = this.focus === "left" && this.rightOpen ? "right" : "left";
      if (this.focus === "left") this.zoom = false;
      return;
    }
    if (data === "q" || matchesKey(data, "escape")) return this.back();
    if (this.focus === "right" && this.tab === "usage" && this.onUsageKey(data)) return;
    const tab = TABS[Number(data) - 1];
    if (/^[1-9]$/.test(data) && tab) return this.showTab(tab);
    if (data === "c") return this.conversationKey();
    if (this.onAction(data)) return;
    if (this.focus === "left" && this.onFilterKey(data)) return;
    if (this.onMove(data)) return;
    if (matchesKey(data, "enter")) this.enter();
  }

  /** A grouping's key, or ← → to step through them. */
  private onUsageKey(data: string): boolean {
    const current = this.usage?.by ?? "day";
    const step = matchesKey(data, "left") ? -1 : matchesKey(data, "right") ? 1 : 0;
    const by = usageGroupingFor(data, current, step);
    if (by === null) return false;
    if (by !== current) this.loadUsage(by);
    return true;
  }

  private onSearchKey(data: string): void {
    if (matchesKey(data, "escape")) return this.leaveInput();
    if (matchesKey(data, "up") || matchesKey(data, "down")) {
      this.hitCursor.moveBy(matchesKey(data, "up") ? -1 : 1);
      return;
    }
    const before = this.input.getValue();
    this.input.handleInput(data);
    if (this.input.getValue() !== before) this.searcher.ask(this.query());
  }

  private enterInput(): void {
    this.searcher.warm();
    this.focus = "search";
    this.zoom = false;
    this.input.focused = true;
    this.help = false;
    if (!this.results && this.input.getValue()) this.searcher.ask(this.query());
  }

  /** Whether the right pane shows something to move in: an open session, or the Ask or Usage tab. */
  get rightOpen(): boolean {
    return this.open !== null || this.tab === "ask" || this.tab === "usage";
  }

  private enterAsk(): void {
    this.askScope = this.focus === "right" && this.open ? this.open.session_id : null;
    this.focus = "ask";
    this.askInput.focused = true;
    this.help = false;
  }

  private onAskKey(data: string): void {
    if (matchesKey(data, "escape")) {
      this.askInput.focused = false;
      this.focus = this.rightOpen ? "right" : "left";
      return;
    }
    if (!matchesKey(data, "enter")) return this.askInput.handleInput(data);
    const question = this.askInput.getValue().trim();
    this.askInput.focused = false;
    this.focus = "right";
    this.tab = "ask";
    if (question === "") return;
    this.asked?.controller.abort();
    this.cursors.ask.moveTo(0);
    if (!this.askService) {
      this.status = this.style.red("asking is not available here");
      return;
    }
    this.asked = startAsk(this.askService, question, this.askScope, () => this.host.requestRender());
  }

  /** AI Resume of the open (or selected) session, shown on its Brief tab. */
  private runAiResume(): void {
    const id = this.open?.session_id ?? this.selectedSessionId();
    if (!id || !this.askService) return;
    if (this.open?.session_id !== id) this.openSession(id);
    this.aiResume?.controller.abort();
    this.aiResume = startAiResume(this.askService, id, () => this.host.requestRender());
    this.showTab("brief");
    this.cursors.brief.moveTo(0);
  }

  private leaveInput(): void {
    this.input.focused = false;
    this.focus = "left";
    this.zoom = false;
  }

  private toggleZoom(): void {
    if (!this.rightOpen) return;
    this.zoom = !this.zoom;
    this.focus = "right";
  }

  private back(): void {
    this.zoom = false;
    if (this.focus === "right") this.focus = "left";
    else if (this.results) {
      this.searcher.cancel();
      this.results = null;
      this.input.setValue("");
    } else this.host.quit();
  }

  private onFilterKey(data: string): boolean {
    const f = this.filters;
    if (data === "a") f.agent = next(this.agents, f.agent);
    else if (data === "p") f.project = next(this.projects, f.project);
    else if (data === "s") f.since = next(SINCE.slice(1) as string[], f.since);
    else return false;
    this.loadSessions();
    if (this.results) this.searcher.ask(this.query());
    return true;
  }

  private onAction(data: string): boolean {
    const action = this.actions[data];
    if (!action) return false;
    const said = action(this, this.host);
    if (said === null || typeof said === "string") {
      if (said !== null) this.status = said;
      return true;
    }
    said.then(
      (text) => {
        if (text !== null) this.status = text;
        this.host.requestRender();
      },
      (error: unknown) => {
        this.status = this.style.red(error instanceof Error ? error.message : String(error));
        this.host.requestRender();
      },
    );
    return true;
  }

  /** The event the selected line of the right pane leads to, when that pane has the focus. */
  selectedTarget(): string | undefined {
    return this.focus === "right" ? this.targetAt(this.cursors[this.tab].index) : undefined;
  }

  selectedSessionId(): string | null {
    if (this.results) {
      const hit = this.results.answer?.hits[this.hitCursor.index];
      return hit?.session_id ?? null;
    }
    return this.sessions[this.sessionCursor.index]?.session_id ?? null;
  }

  private activeCursor(): Cursor {
    if (this.focus === "right" && this.rightOpen) return this.cursors[this.tab];
    return this.results ? this.hitCursor : this.sessionCursor;
  }

  private onMove(data: string): boolean {
    const c = this.activeCursor();
    const page = Math.max(1, this.host.rows() - 4);
    if (matchesKey(data, "up") || data === "k") c.moveBy(-1);
    else if (matchesKey(data, "down") || data === "j") c.moveBy(1);
    else if (matchesKey(data, "pageUp")) c.moveBy(-page);
    else if (matchesKey(data, "pageDown") || data === " ") c.moveBy(page);
    else if (matchesKey(data, "home") || data === "g") this.toEdge(c, "start");
    else if (matchesKey(data, "end") || data === "G") this.toEdge(c, "end");
    else if ((data === "n" || data === "N") && this.focus === "right") this.nextTarget(c, data === "n" ? 1 : -1);
    else return false;
    if (c === this.cursors.timeline) this.readMore(c);
    return true;
  }

  /** The first or last row: of the session, for a timeline read in stretches. */
  private toEdge(c: Cursor, edge: "start" | "end"): void {
    const view = c === this.cursors.timeline ? this.view : null;
    if (view && edge === "start" && view.earlier) view.loadStart();
    if (view && edge === "end" && view.later) view.loadEnd();
    c.setCount(view ? view.rows.length : c.count);
    c.moveTo(edge === "start" ? 0 : c.count - 1);
  }

  /** Reads the next stretch of the timeline when the cursor comes near an edge of what is read. */
  private readMore(c: Cursor): void {
    const view = this.view;
    if (!view) return;
    if (c.index < 10 && view.earlier) {
      const added = view.extendEarlier();
      c.setCount(view.rows.length);
      c.index += added;
      c.top += added;
    }
    if (c.index > view.rows.length - 10 && view.later) {
      view.extendLater();
      c.setCount(view.rows.length);
    }
  }

  private nextTarget(c: Cursor, step: 1 | -1): void {
    for (let i = c.index + step; i >= 0 && i < this.shown.count; i += step) if (this.leadsAt(i)) return c.moveTo(i);
  }

  private targetAt(index: number): string | undefined {
    return index >= 0 && index < this.shown.count ? this.shown.line(index).target : undefined;
  }

  /** Whether the line leads somewhere: to an event, or (Threads tab) to a session. */
  private leadsAt(index: number): boolean {
    if (index < 0 || index >= this.shown.count) return false;
    const line = this.shown.line(index);
    return line.target !== undefined || line.session !== undefined;
  }

  /** Scrolls the list under the mouse wheel. */
  wheel(delta: number): void {
    this.activeCursor().moveBy(delta);
    this.host.requestRender();
  }

  private enter(): void {
    if (this.focus === "left") {
      const hit = this.results?.answer?.hits[this.hitCursor.index];
      if (this.results && hit)
        return this.openSession(hit.session_id, { event_id: hit.event_id, ordinal: ordinalOf(this, hit.event_id) });
      const s = this.sessions[this.sessionCursor.index];
      if (!this.results && s) this.openSession(s.session_id);
      return;
    }
    const index = this.cursors[this.tab].index;
    if (this.tab === "conversation") {
      const line = this.shownLine(index);
      if (line && this.conversation) toggleAt(this.conversation, line, this.cursors.conversation);
      return;
    }
    const session = index < this.shown.count ? this.shown.line(index).session : undefined;
    if (session) return this.openSession(session);
    const target = this.targetAt(index);
    if (!target) return;
    if (this.tab === "timeline") this.showEvent(target);
    else this.jumpTo(target);
  }
}

function ordinalOf(b: Browser, eventId: string): number {
  return b.app.resolveEvent(eventId).ordinal;
}

function next<T>(list: readonly T[], current: T | null): T | null {
  if (current === null) return list[0] ?? null;
  const i = list.indexOf(current);
  return i < 0 || i === list.length - 1 ? null : list[i + 1]!;
}

export type { SearchAnswer };
