/**
 * pi entry point of cairn's extension (the package manifest, `pi install` and `pi -e` load this module's default
 * export). Without injected sources `/handoff` reports that briefs are unavailable and the recall tools stay
 * unregistered; `createCairnExtension` wires them in.
 */
import { createCairnExtension } from "./extension.ts";

export default createCairnExtension();

export { type CairnExtensionOptions, createCairnExtension } from "./extension.ts";
export type { HandoffBrief, HandoffBriefRequest, HandoffBriefSource } from "./handoff/brief-source.ts";
export type {
  RecallBrief,
  RecallBriefRequest,
  RecallHit,
  RecallSearchRequest,
  RecallSource,
} from "./recall/recall-source.ts";
