/**
 * Search as you type: each keystroke asks again, and only the newest question's answer is shown. One search runs
 * at a time (in the search thread, `search-thread.ts`); keys typed while it runs only replace the question that
 * goes next, so a slow search is followed by one search for the latest text, and an answer to an older text is
 * dropped. Words answer first; when no newer key has come for a moment, the same question is asked again with
 * meaning (the hybrid ranking) and its answer replaces the first in a later frame. The moment keeps a typist's next
 * key from waiting behind a meaning pass that it makes useless, since a search in the thread cannot be stopped. An index without vectors for meaning says
 * so in its first hybrid answer, and is then asked by words alone.
 */
import type { SearchAnswer } from "../app/cairn.ts";
import type { SearchMode } from "./search-run.ts";
import type { SearchBackend } from "./search-thread.ts";

export interface SearchOutcome {
  query: string;
  answer: SearchAnswer | null;
  /** A malformed query or a failure, said in one line. */
  error: string | null;
  ms: number;
  /** How this answer was ranked: by words alone (a hybrid answer may follow) or with meaning. */
  mode: SearchMode;
}

/** How long no key comes before the answer by words is ranked again with meaning. */
const PAUSE_MS = 120;

export class Searcher {
  private seq = 0;
  private next: { query: string; seq: number; mode: SearchMode } | null = null;
  /** Whether meaning can rank: false once the index answered that it has no vectors for it. */
  private meaning = true;
  /** The meaning pass waiting for the typist to pause. */
  private later: NodeJS.Timeout | null = null;
  /** The question being answered, while one is. */
  running: string | null = null;
  private readonly backend: SearchBackend;
  private readonly onResult: (outcome: SearchOutcome) => void;
  private readonly onChange: () => void;
  private readonly limit: number;
  private readonly pauseMs: number;

  constructor(
    backend: SearchBackend,
    onResult: (outcome: SearchOutcome) => void,
    onChange: () => void = () => {},
    opts: { limit?: number; pauseMs?: number } = {},
  ) {
    this.backend = backend;
    this.onResult = onResult;
    this.onChange = onChange;
    this.limit = opts.limit ?? 30;
    this.pauseMs = opts.pauseMs ?? PAUSE_MS;
  }

  /** Asks for `query`; supersedes every question asked before. */
  ask(query: string): void {
    this.stopLater();
    this.next = { query, seq: ++this.seq, mode: "lexical" };
    // On the next turn of the event loop, so keys that came together ask once.
    setImmediate(() => this.pump());
  }

  /** Drops whatever is asked or in flight. */
  cancel(): void {
    this.stopLater();
    this.seq++;
    this.next = null;
  }

  /** Whether the newest question is still unanswered. */
  get waiting(): boolean {
    return this.next !== null || this.running !== null || this.later !== null;
  }

  /** The search field opened: the search thread can start. */
  warm(): void {
    // Vectors may have been added since meaning was last found missing (an indexer running beside).
    this.meaning = true;
    this.backend.warm();
  }

  close(): void {
    this.cancel();
    this.backend.close();
  }

  private pump(): void {
    if (this.running !== null || this.next === null) return;
    const { query, seq, mode } = this.next;
    this.next = null;
    if (query.trim() === "") {
      if (seq === this.seq) this.onResult({ query, answer: null, error: null, ms: 0, mode });
      return;
    }
    this.running = query;
    this.onChange();
    const started = performance.now();
    this.backend.search(query, this.limit, mode).then(
      (answer) => this.done(seq, { query, answer, error: null, ms: performance.now() - started, mode }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.done(seq, { query, answer: null, error: message, ms: performance.now() - started, mode });
      },
    );
  }

  private done(seq: number, outcome: SearchOutcome): void {
    this.running = null;
    if (outcome.mode === "hybrid" && outcome.answer?.mode === "lexical" && /^no /.test(outcome.answer.notice ?? ""))
      this.meaning = false;
    if (seq === this.seq) {
      this.onResult(outcome);
      // No newer key: rank the same question with meaning too, once the typist pauses.
      if (outcome.mode === "lexical" && outcome.answer && this.meaning && this.next === null) {
        this.later = setTimeout(() => {
          this.later = null;
          if (seq !== this.seq || this.next !== null) return;
          this.next = { query: outcome.query, seq, mode: "hybrid" };
          this.pump();
        }, this.pauseMs);
        this.later.unref();
      }
    } else this.onChange();
    this.pump();
  }

  private stopLater(): void {
    if (this.later) clearTimeout(this.later);
    this.later = null;
  }
}
