/**
 * Search as you type: each keystroke asks again, and only the newest question's answer is shown. One search runs
 * at a time (in the search thread, `search-thread.ts`); keys typed while it runs only replace the question that
 * goes next, so a slow search is followed by one search for the latest text, and an answer to an older text is
 * dropped.
 */
import type { SearchAnswer } from "../app/cairn.ts";
import type { SearchBackend } from "./search-thread.ts";

export interface SearchOutcome {
  query: string;
  answer: SearchAnswer | null;
  /** A malformed query or a failure, said in one line. */
  error: string | null;
  ms: number;
}

export class Searcher {
  private seq = 0;
  private next: { query: string; seq: number } | null = null;
  /** The question being answered, while one is. */
  running: string | null = null;
  private readonly backend: SearchBackend;
  private readonly onResult: (outcome: SearchOutcome) => void;
  private readonly onChange: () => void;
  private readonly limit: number;

  constructor(
    backend: SearchBackend,
    onResult: (outcome: SearchOutcome) => void,
    onChange: () => void = () => {},
    limit = 30,
  ) {
    this.backend = backend;
    this.onResult = onResult;
    this.onChange = onChange;
    this.limit = limit;
  }

  /** Asks for `query`; supersedes every question asked before. */
  ask(query: string): void {
    this.next = { query, seq: ++this.seq };
    // On the next turn of the event loop, so keys that came together ask once.
    setImmediate(() => this.pump());
  }

  /** Drops whatever is asked or in flight. */
  cancel(): void {
    this.seq++;
    this.next = null;
  }

  /** Whether the newest question is still unanswered. */
  get waiting(): boolean {
    return this.next !== null || this.running !== null;
  }

  /** The search field opened: the search thread can start. */
  warm(): void {
    this.backend.warm();
  }

  close(): void {
    this.cancel();
    this.backend.close();
  }

  private pump(): void {
    if (this.running !== null || this.next === null) return;
    const { query, seq } = this.next;
    this.next = null;
    if (query.trim() === "") {
      if (seq === this.seq) this.onResult({ query, answer: null, error: null, ms: 0 });
      return;
    }
    this.running = query;
    this.onChange();
    const started = performance.now();
    this.backend.search(query, this.limit).then(
      (answer) => this.done(seq, { query, answer, error: null, ms: performance.now() - started }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.done(seq, { query, answer: null, error: message, ms: performance.now() - started });
      },
    );
  }

  private done(seq: number, outcome: SearchOutcome): void {
    this.running = null;
    if (seq === this.seq) this.onResult(outcome);
    else this.onChange();
    this.pump();
  }
}
