/**
 * Search as you type: each keystroke asks again, and only the newest question's answer is shown. A question is
 * run on the next turn of the event loop, so keys typed while a search runs coalesce into one search for the
 * latest text; an answer that arrives for an older text is dropped.
 */
import type { ReadCairn, SearchAnswer } from "../app/cairn.ts";

export interface SearchOutcome {
  query: string;
  answer: SearchAnswer | null;
  /** A malformed query or a failure, said in one line. */
  error: string | null;
  ms: number;
}

export class Searcher {
  private seq = 0;
  private readonly app: Pick<ReadCairn, "search">;
  private readonly onResult: (outcome: SearchOutcome) => void;
  private readonly limit: number;

  constructor(app: Pick<ReadCairn, "search">, onResult: (outcome: SearchOutcome) => void, limit = 30) {
    this.app = app;
    this.onResult = onResult;
    this.limit = limit;
  }

  /** Asks for `query`; supersedes every question asked before. */
  ask(query: string): void {
    const mine = ++this.seq;
    setImmediate(() => {
      if (mine !== this.seq) return;
      void this.run(query, mine);
    });
  }

  /** Drops whatever is in flight. */
  cancel(): void {
    this.seq++;
  }

  private async run(query: string, mine: number): Promise<void> {
    const started = performance.now();
    let outcome: SearchOutcome;
    if (query.trim() === "") outcome = { query, answer: null, error: null, ms: 0 };
    else
      try {
        const answer = await this.app.search({ query, limit: this.limit });
        outcome = { query, answer, error: null, ms: performance.now() - started };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome = { query, answer: null, error: message, ms: performance.now() - started };
      }
    if (mine === this.seq) this.onResult(outcome);
  }
}
