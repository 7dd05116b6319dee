/**
 * The index-backed sources, loaded on first use: pi starts the extension with every session, and most sessions
 * never ask for a brief or a search, so SQLite and the resume engine are not loaded until one does.
 */
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import type { IndexSourcesOptions } from "./index-sources.ts";
import type { RecallSource } from "./recall/recall-source.ts";

export function lazyIndexSources(opts: IndexSourcesOptions = {}): { briefs: HandoffBriefSource; recall: RecallSource } {
  let loaded: ReturnType<typeof load> | undefined;
  function load() {
    return import("./index-sources.ts").then((m) => m.createIndexSources(opts));
  }
  const get = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    briefs: { buildBrief: async (req) => (await get()).briefs.buildBrief(req) },
    recall: {
      search: async (req) => (await get()).recall.search(req),
      resumeBrief: async (req) => (await get()).recall.resumeBrief(req),
    },
  };
}
