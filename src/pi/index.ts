/**
 * pi entry point of cairn's extension (the package manifest, `pi install` and `pi -e` load this module's default
 * export). The default instance briefs and recalls from cairn's index (`CAIRN_DB` or the XDG default database);
 * `createCairnExtension` takes other sources, or none (then `/handoff` says briefs are unavailable and the recall
 * tools stay unregistered). Nothing here loads the index: pi loads this module at every start, so the index-backed
 * sources (`./index-sources.ts`, which has `createIndexSources`) load on first use.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { createCairnExtension } from "./extension.ts";
import { lazyIndexSources } from "./lazy-sources.ts";

/** One extension instance: everything it uses, its sources included, is created for it and shared with no other. */
export default function piAgenticoding(pi: ExtensionAPI): void {
  const { briefs, recall, close } = lazyIndexSources();
  createCairnExtension({ briefs, recall })(pi);
  // A background index of the agents' folders stops with the instance that started it.
  pi.on("session_shutdown", async () => {
    await close();
  });
}

export { type CairnExtensionOptions, createCairnExtension } from "./extension.ts";
export type { HandoffBrief, HandoffBriefRequest, HandoffBriefSource } from "./handoff/brief-source.ts";
export type { IndexSourcesOptions } from "./index-sources.ts";
export { lazyIndexSources } from "./lazy-sources.ts";
export type {
  RecallBrief,
  RecallBriefRequest,
  RecallHit,
  RecallSearchRequest,
  RecallSource,
} from "./recall/recall-source.ts";
