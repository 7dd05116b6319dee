/** `search`: hits ranked by words and meaning, each with its evidence chain (`cairn search`, `search_history`). */
import type { HybridResult } from "../../search/hybrid.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type SearchRequest = Input<"search">;
/** Hits with their evidence chains, ranked by words and meaning; `mode` says what ranked them. */
export type SearchAnswer = HybridResult;

export const search = question({
  name: "search",
  summary: "search history: errors, tests, decisions, files, commands, words and meaning",
  input: "search",
  id: "query",
  async answer(ctx, req: SearchRequest): Promise<SearchAnswer> {
    const { answerSearch } = await import("../search-answer.ts");
    return answerSearch(ctx.store(), req, ctx.embedder, ctx.now, ctx.env["HOME"]);
  },
});
