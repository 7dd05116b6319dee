/**
 * One question cairn answers, declared once: its name (the app's method, the key every surface names it by), what
 * it answers, its input (a JSON schema compiled from `inputs.ts` at build time, with the rules across fields that
 * a schema cannot say), and its handler. The surfaces are projections of these declarations: `createCairn` makes
 * each one a method whose answer passes the shaping step, `cairn mcp` serves the questions that name a tool, the
 * history API routes the ones that name a path (`routes.ts`, which the page builds its URLs from), and the CLI's
 * commands ask them. A new question is one file here and one line in `index.ts`.
 */
import type { Embedder } from "../../embedders/types.ts";
import type { ReadonlyStore } from "../../store/types.ts";
import type { AskDeps } from "../ask-deps.ts";
import type { Env } from "../open.ts";

/** What a handler reads with. */
export interface QuestionContext {
  /** The index through the redacting view (or as written, when a person asked to reveal). */
  store(): ReadonlyStore;
  now(): Date;
  /** Relative paths and "the latest session here" are taken from it. */
  readonly cwd: string;
  readonly env: Env;
  /** The embedder queries are embedded with (the index's choice), or null for words only. */
  embedder(): Embedder | null;
  /** A text of a session read from elsewhere (its transcript file) with that session's secrets taken out. */
  sessionText(sessionId: string, text: string): string;
  /** Text made for where the answer goes (a model's words streamed to a terminal), as the shaping step makes it. */
  shapeText(text: string): string;
  /** The app's own questions, answered and shaped: for a question built on others (ask's pack on search). */
  app(): AskDeps;
  /** A question is about to be answered: what the index holds is read afresh (a long-lived process's index grows). */
  begin(): void;
  /**
   * Keeps a value derived from the index in its settings for later answers to read (a cache: usage's rolled-up
   * calls). Dropped when this app may not write, or the write fails.
   */
  keep?(key: string, value: string): void;
}

export interface Question<I, A, K extends string | undefined = string | undefined> {
  readonly name: string;
  /** One line: what it answers. */
  readonly summary: string;
  /** Its input's schema in data/catalog-schemas.json (compiled from `inputs.ts`); absent for a library-only input. */
  readonly input?: string;
  /** An input given as a bare string is this field's value (`show <id>`, `session(ref)`). */
  readonly id?: K;
  /** Rules across fields that a schema cannot say; they throw a usage error. */
  readonly rules?: (input: I) => void;
  /** The answer holds text that did not come through the redacting view: every string of it is scanned. */
  readonly scan?: true;
  readonly answer: (ctx: QuestionContext, input: I) => A;
}

/** Declares a question (typed by its handler, and by its id field when it has one). */
export function question<I, A, const K extends string | undefined = undefined>(
  q: Question<I, A, K>,
): Question<I, A, K> {
  return q;
}
