/**
 * pi entry point of cairn's extension (the package manifest, `pi install` and `pi -e` load this module's default
 * export, bundled as dist/cairn/index.js). It is the one file pi's loader transpiles, which is what gives it pi's own
 * modules rather than a copy in cairn's node_modules, so it only takes what the extension uses from them and hands
 * it to the rest (`./default-extension.ts`), which loads as plain ES modules. Other code builds the extension with
 * `createCairnExtension(host, options)` from `./extension.ts`, with its own sources or none.
 */
import {
  CustomEditor,
  createLocalBashOperations,
  type ExtensionAPI,
  parseFrontmatter,
  stripFrontmatter,
} from "@earendil-works/pi-coding-agent";
import { matchesKey } from "@earendil-works/pi-tui";
import { Type } from "typebox";

export default async function piAgenticoding(pi: ExtensionAPI): Promise<void> {
  const { cairnForPi } = await import("./default-extension.ts");
  cairnForPi({ CustomEditor, createLocalBashOperations, parseFrontmatter, stripFrontmatter, matchesKey, Type })(pi);
}

export type { CairnExtensionOptions } from "./extension.ts";
export type { HandoffBrief, HandoffBriefRequest, HandoffBriefSource } from "./handoff/brief-source.ts";
export type { PiHost } from "./host.ts";
export type { IndexSourcesOptions } from "./index-sources.ts";
export type {
  RecallBrief,
  RecallBriefRequest,
  RecallHit,
  RecallSearchRequest,
  RecallSource,
} from "./recall/recall-source.ts";
