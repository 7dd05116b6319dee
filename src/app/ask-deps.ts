/**
 * What asking (`ask.ts`, `ask-answer.ts`, `ai-resume.ts`) reads through the app: its searches, sessions and briefs,
 * and the index through the redacting view. Named here rather than as the app's own type, which names these
 * modules' answers: each side then knows the other only by shape.
 */
import type { HybridResult, SearchMode } from "../search/hybrid.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import type { BriefJson } from "./brief.ts";
import type { Input } from "./catalog/inputs.ts";

export interface AskDeps {
  session(ref: string): SessionRow;
  reader(): ReadonlyStore;
  search(req: { query: string; limit?: number; mode?: SearchMode }): Promise<HybridResult>;
  brief(req: Input<"brief">): Promise<BriefJson>;
  /** The shortest form of a session id that names it, for the lines the pack shows. */
  shortSessionId(id: string): string;
}
