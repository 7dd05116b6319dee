/** `threads`: work threads, sessions of any agent joined by the rare files, errors and branches they share. */
import type { ListThreadsResult } from "../../threads/types.ts";
import type { Input } from "./inputs.ts";
import { question } from "./question.ts";

export type ThreadsRequest = Input<"threads">;

export const threads = question({
  name: "threads",
  summary: "work threads: sessions of any agent joined by the rare files, errors and branches they share",
  input: "threads",
  async answer(ctx, given: ThreadsRequest | undefined): Promise<ListThreadsResult> {
    const req = given ?? {};
    const { listThreads } = await import("../../threads/index.ts");
    return listThreads(ctx.store(), {
      ...(req.project !== undefined ? { project: [req.project] } : {}),
      ...(req.include_single !== undefined ? { includeSingle: req.include_single } : {}),
      ...(req.limit !== undefined ? { limit: req.limit } : {}),
    });
  },
});
