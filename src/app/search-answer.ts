/**
 * A search as every surface gets it: hits ranked by words and meaning, and for the questions about how work ended
 * ("what was still failing", "did X work"), what the ledger and the outcomes say first. Loaded by `app/cairn.ts`
 * on the first search, so commands that never search start without the ranking modules.
 */
import type { Embedder } from "../embedders/types.ts";
import { type HybridResult, type SearchMode, searchHybrid } from "../search/hybrid.ts";
import type { ReadonlyStore } from "../store/types.ts";
import { asksHowItEnded, ENDING_HITS, withEndState } from "./end-state.ts";

export async function answerSearch(
  s: ReadonlyStore,
  req: { query: string; limit?: number; mode?: SearchMode; explain?: boolean },
  embedder: () => Embedder | null,
  now: () => Date,
  home?: string,
): Promise<HybridResult> {
  const searchMode = req.mode ?? "hybrid";
  const limit = req.limit ?? 20;
  // "what was still failing": the ledger's failures of the hits' sessions lead (app/open-failures.ts); "did X
  // work": what the outcomes of the requests about X rest on (app/end-state.ts). Both read the first ten hits.
  const ending = asksHowItEnded(req.query, now());
  const result = await searchHybrid(s, req.query, {
    embedder: searchMode === "lexical" ? null : embedder(),
    mode: searchMode,
    limit: ending ? Math.max(limit, ENDING_HITS) : limit,
    now: now(),
    ...(req.explain ? { explain: true } : {}),
    ...(home ? { home } : {}),
  });
  if (!ending) return result;
  // The ledger's failures need the resume engine's readers: loaded only for a question about how work ended.
  const { withOpenFailures } = await import("./open-failures.ts");
  const answered = withEndState(s, withOpenFailures(s, result, now(), limit), now(), limit);
  return { ...answered, hits: answered.hits.slice(0, limit) };
}
