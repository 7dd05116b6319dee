/**
 * `inspect`: what cairn makes of transcript files, read now and not indexed (`cairn inspect`). Read from the agents'
 * files, not through the redacting view: every string of it is scanned for secrets on the way out.
 */
import type { InspectResult } from "../../indexer/inspect.ts";
import { question } from "./question.ts";

export const inspect = question({
  name: "inspect",
  summary: "what cairn makes of transcript files: sessions, events, edges, entities and problems, without indexing",
  scan: true,
  // The readers and the normalizer load with the first inspect: no other question needs them.
  async answer(ctx, req: { paths: readonly string[] }): Promise<InspectResult> {
    const { inspectPaths } = await import("../../indexer/inspect.ts");
    return inspectPaths(req.paths, ctx.cwd);
  },
});
