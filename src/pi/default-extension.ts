/**
 * The extension as pi loads it: cairn's commands and tools over cairn's index (`CAIRN_DB` or the XDG default
 * database), given the running pi's own classes and functions by the entry (`./index.ts`). The index-backed sources
 * load on first use.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ExtensionFactory } from "@earendil-works/pi-coding-agent";
import { createCairnExtension } from "./extension.ts";
import type { PiHost } from "./host.ts";
import { lazyIndexSources } from "./lazy-sources.ts";
import { childStartBriefs } from "./start-brief/child-source.ts";

/** One extension instance: everything it uses, its sources included, is created for it and shared with no other. */
export function cairnForPi(host: PiHost): ExtensionFactory {
  return (pi) => {
    const { briefs, recall, startBriefs, close } = lazyIndexSources();
    const cli = fileURLToPath(new URL("../bundle/cairn.js", import.meta.url));
    // Built, the brief comes from the CLI's bundle in a process of its own; run from the sources, from this one.
    createCairnExtension(host, {
      briefs,
      recall,
      startBriefs: existsSync(cli) ? childStartBriefs(cli) : startBriefs,
    })(pi);
    // A background index of the agents' folders stops with the instance that started it.
    pi.on("session_shutdown", async () => {
      await close();
    });
  };
}
