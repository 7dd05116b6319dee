/**
 * The one state object of an extension instance. The factory creates it and hands it to every module; nothing
 * lives at module level. Everything in it is a cache of the current branch (rebuilt on `session_start` and
 * `session_tree`) or transient to the instance (the run it is executing, turn tracking).
 */
import type { ExtensionAPI, SessionEntry } from "@earendil-works/pi-coding-agent";
import type { HandoffBriefSource } from "./handoff/brief-source.ts";
import type { PiHost } from "./host.ts";
import { createNotebookState, type NotebookState, rebuildPages } from "./notebook/pages.ts";
import { latestReadonly, type ReadonlyState } from "./readonly/readonly-state.ts";
import type { SandboxProbe } from "./readonly/sandbox.ts";
import type { RecallSource } from "./recall/recall-source.ts";
import type { RunControl } from "./sequence/run-control.ts";
import { latestSnapshot } from "./sequence/snapshot.ts";
import { createTurnWatch, type TurnWatch } from "./sequence/turns.ts";
import type { SequenceState } from "./sequence/types.ts";
import type { StartBriefSource } from "./start-brief/start-brief-source.ts";

/** What every instance made by one factory shares: injected sources and stateless helpers, never session state. */
export interface CairnServices {
  /** Builds `/handoff` briefs; absent until cairn's resume engine is wired in. */
  briefs: HandoffBriefSource | undefined;
  /** Backs the agent's recall tools; absent until cairn's index is wired in. */
  recall: RecallSource | undefined;
  /** Builds the brief a new session starts with; absent: none. */
  startBriefs: StartBriefSource | undefined;
  sandbox: SandboxProbe;
  now(): number;
  newId(): string;
  /** pi's own classes and functions the extension uses at run time. */
  host: PiHost;
  /** The terminal's width, for footer texts that must fit it; undefined without a terminal (print, RPC). */
  columns(): number | undefined;
}

export interface CairnState {
  /** The `pi` of the instance that owns this state; never another instance's. */
  readonly api: ExtensionAPI;
  readonly services: CairnServices;
  readonly sequence: SequenceState;
  readonly notebook: NotebookState;
  readonly readonly: ReadonlyState;
  readonly turns: TurnWatch;
  /** How this instance holds `sequence.activeRun` (executing, awaiting a new session, paused); null without one. */
  runControl: RunControl | null;
}

export function createCairnState(api: ExtensionAPI, services: CairnServices): CairnState {
  return {
    api,
    services,
    sequence: { lastRecorded: null, activeRun: null },
    notebook: createNotebookState(),
    readonly: { enabled: false },
    turns: createTurnWatch(),
    runControl: null,
  };
}

/**
 * Rebuild the branch-derived caches. A run in progress is not touched: it belongs to this instance's execution,
 * not to the branch.
 */
export function rehydrateState(state: CairnState, branch: readonly SessionEntry[]): void {
  state.sequence.lastRecorded = latestSnapshot(branch);
  state.notebook.pages = rebuildPages(branch);
  state.readonly.enabled = latestReadonly(branch);
}
