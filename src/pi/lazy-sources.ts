/**
 * The index-backed sources, loaded on first use: pi starts the extension with every session, and most sessions
 * never ask for a brief or a search, so SQLite and the resume engine are not loaded until one does.
 */
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import type { IndexSources, IndexSourcesOptions } from "./index-sources.ts";
import type { RecallSource } from "./recall/recall-source.ts";
import type { StartBriefSource } from "./start-brief/start-brief-source.ts";

export function lazyIndexSources(opts: IndexSourcesOptions = {}): {
  briefs: HandoffBriefSource;
  recall: RecallSource;
  startBriefs: StartBriefSource;
  close(): Promise<void>;
} {
  let loaded: Promise<IndexSources> | undefined;
  let ready: IndexSources | undefined;
  const get = () => {
    loaded ??= import("./index-sources.ts").then((m) => {
      ready = m.createIndexSources(opts);
      return ready;
    });
    return loaded;
  };
  return {
    briefs: { buildBrief: async (req) => (await get()).briefs.buildBrief(req) },
    startBriefs: { startBrief: async (req) => (await get()).startBriefs.startBrief(req) },
    recall: {
      search: async (req) => (await get()).recall.search(req),
      resumeBrief: async (req) => (await get()).recall.resumeBrief(req),
      status: () => ready?.recall.status?.(),
    },
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}
