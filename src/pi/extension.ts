/**
 * cairn's pi extension. `createCairnExtension(host)` returns the factory pi calls once per extension instance (pi makes
 * a new instance at startup and after every session replacement or reload). Each instance builds one state object,
 * hands it to every module, and rebuilds it from the current branch whenever the branch changes. Instances share
 * nothing but the injected services; a sequence run moves between them as data on the session tree.
 */
import { randomUUID } from "node:crypto";
import type { ExtensionFactory } from "@earendil-works/pi-coding-agent";
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import { registerHandoff } from "./handoff/handoff.ts";
import type { PiHost } from "./host.ts";
import { registerNotebook } from "./notebook/notebook.ts";
import { registerReadonly, showReadonlyStatus } from "./readonly/readonly.ts";
import { createBwrapProbe, type SandboxProbe } from "./readonly/sandbox.ts";
import type { RecallSource } from "./recall/recall-source.ts";
import { registerRecallTools } from "./recall/recall-tools.ts";
import { registerSequence } from "./sequence/command.ts";
import { claimRun, leaveRun } from "./sequence/handover.ts";
import { registerStartBrief } from "./start-brief/start-brief.ts";
import type { StartBriefSource } from "./start-brief/start-brief-source.ts";
import { type CairnServices, createCairnState, rehydrateState } from "./state.ts";

export interface CairnExtensionOptions {
  /** Builds `/handoff` briefs (cairn's resume engine). Without it `/handoff` reports that it is unavailable. */
  briefs?: HandoffBriefSource;
  /** Backs the agent's recall tools (cairn's index). Without it the tools are not registered. */
  recall?: RecallSource;
  /** Builds the brief of earlier work a new session starts with (cairn's index). Without it: none. */
  startBriefs?: StartBriefSource;
  /** Overrides sandbox detection for read-only bash (tests). */
  sandbox?: SandboxProbe;
  now?: () => number;
  newId?: () => string;
  /** The terminal's width (tests); by default pi's terminal, stdout. */
  columns?: () => number | undefined;
}

export function createCairnExtension(host: PiHost, options: CairnExtensionOptions = {}): ExtensionFactory {
  const services: CairnServices = {
    host,
    briefs: options.briefs,
    recall: options.recall,
    startBriefs: options.startBriefs,
    sandbox: options.sandbox ?? createBwrapProbe(),
    now: options.now ?? Date.now,
    newId: options.newId ?? randomUUID,
    columns: options.columns ?? (() => (process.stdout.isTTY ? process.stdout.columns : undefined)),
  };

  return (pi) => {
    const state = createCairnState(pi, services);
    registerNotebook(pi, state);
    registerReadonly(pi, state);
    registerHandoff(pi, state);
    registerSequence(pi, state);
    registerRecallTools(pi, state);
    registerStartBrief(pi, state);

    pi.on("session_start", (event, ctx) => {
      rehydrateState(state, ctx.sessionManager.getBranch());
      showReadonlyStatus(ctx, state);
      claimRun(event.reason, ctx, state);
    });
    pi.on("session_tree", (_event, ctx) => {
      rehydrateState(state, ctx.sessionManager.getBranch());
      showReadonlyStatus(ctx, state);
    });
    pi.on("session_shutdown", (event) => {
      leaveRun(event.reason, state);
    });
    pi.on("agent_start", () => {
      state.turns.started();
    });
    // A settled turn or a finished compaction may leave pi idle again.
    pi.on("agent_settled", () => {
      state.turns.settled();
    });
    pi.on("session_compact", () => {
      state.turns.settled();
    });
    pi.on("session_compact_failed", () => {
      state.turns.settled();
    });
  };
}
