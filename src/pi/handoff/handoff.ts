/**
 * `/handoff <direction>`: build a cited brief of the current session with cairn's resume engine, start a fresh
 * session that opens with the brief and the notebook, and send the direction as its first prompt. Without a brief
 * source (the resume engine is not wired in yet) it explains that and changes nothing.
 */
import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../common/errors.ts";
import { EXTENSION_NAME, PACKAGE_NAME } from "../names.ts";
import { NOTEBOOK_ENTRY_TYPE, type NotebookEntry, type NotebookPage } from "../notebook/pages.ts";
import type { ReplacedSessionContext, SetupSessionManager } from "../pi-types.ts";
import type { CairnState } from "../state.ts";
import type { HandoffBrief, HandoffBriefSource } from "./brief-source.ts";

export const HANDOFF_MESSAGE_TYPE = "cairn-handoff";

export const HANDOFF_UNAVAILABLE_REASON = `Handoff briefs are unavailable: ${EXTENSION_NAME} was started without ${PACKAGE_NAME}'s resume engine.`;
export const HANDOFF_UNAVAILABLE = `${HANDOFF_UNAVAILABLE_REASON} Nothing was changed.`;

export const HANDOFF_STATUSES = ["unavailable", "invalid", "failed", "cancelled", "started"] as const;
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

export interface HandoffOptions {
  /** Extra entries for the new session, written before it starts (the sequence runner adds its records). */
  setup?: (sessionManager: SetupSessionManager) => void;
  /** Send the direction as the new session's first prompt (default); the sequence runner sends it itself. */
  sendDirection?: boolean;
  /** Asked once the brief is built, right before the session changes; false cancels the handoff. */
  stillWanted?: () => boolean;
  /** Runs in the new session (after the direction prompt, when sent), with the fresh context only. */
  continueWith?: (ctx: ReplacedSessionContext) => Promise<void>;
}

/** What a handoff carries over: where its brief comes from and the notebook of the session it leaves. */
export interface HandoffInputs {
  briefs: HandoffBriefSource | undefined;
  pages: ReadonlyMap<string, NotebookPage>;
}

export interface HandoffResult {
  status: HandoffStatus;
  message?: string;
}

/**
 * `/handoff <direction>` with this instance's brief source and notebook. After a successful handoff the given `ctx`
 * is stale; the caller continues, if at all, through `options.continueWith`.
 */
export function requestHandoff(
  ctx: ExtensionCommandContext,
  state: CairnState,
  direction: string,
  options: HandoffOptions = {},
): Promise<HandoffResult> {
  return handOff(ctx, { briefs: state.services.briefs, pages: state.notebook.pages }, direction, options);
}

/**
 * The handoff itself, shared by `/handoff` and the sequence runner's `/handoff` steps (which read the notebook from
 * the branch of the session they hand off, not from any instance's state).
 */
export async function handOff(
  ctx: ExtensionCommandContext,
  inputs: HandoffInputs,
  direction: string,
  options: HandoffOptions = {},
): Promise<HandoffResult> {
  const source = inputs.briefs;
  if (!source) return stop(ctx, "unavailable", HANDOFF_UNAVAILABLE, "warning");
  const goal = direction.trim();
  if (!goal) return stop(ctx, "invalid", "Usage: /handoff <direction for the next session>", "warning");

  await ctx.waitForIdle();
  const sessionFile = ctx.sessionManager.getSessionFile();
  if (!sessionFile) {
    return stop(ctx, "failed", "Handoff needs a saved session; this session is in memory only.", "error");
  }
  let brief: HandoffBrief;
  try {
    brief = await source.buildBrief({
      sessionFile,
      sessionId: ctx.sessionManager.getSessionId(),
      leafId: ctx.sessionManager.getLeafId(),
      cwd: ctx.cwd,
      direction: goal,
    });
  } catch (error) {
    return stop(
      ctx,
      "failed",
      `Handoff failed while building the brief: ${errorMessage(error)}. Nothing was changed.`,
      "error",
    );
  }

  // Plain data only: pages and brief are copied before the old session goes away.
  if (options.stillWanted && !options.stillWanted()) {
    return stop(ctx, "cancelled", "Handoff cancelled; staying in this session.", "info");
  }
  const pages = [...inputs.pages.values()].map(
    (page): NotebookEntry => ({
      version: 1,
      op: "write",
      name: page.name,
      content: page.content,
      updatedAt: page.updatedAt,
    }),
  );
  const details = { direction: goal, from: sessionFile, citedEventIds: [...brief.citedEventIds] };
  const content = renderBriefMessage(brief, goal);

  let replaced = false;
  const result = await ctx.newSession({
    parentSession: sessionFile,
    setup: async (sessionManager) => {
      for (const page of pages) sessionManager.appendCustomEntry(NOTEBOOK_ENTRY_TYPE, page);
      options.setup?.(sessionManager);
      sessionManager.appendCustomMessageEntry(HANDOFF_MESSAGE_TYPE, content, true, details);
    },
    withSession: async (fresh) => {
      replaced = true;
      if (options.sendDirection !== false) await fresh.sendUserMessage(goal);
      await options.continueWith?.(fresh);
    },
  });
  // `ctx` is usable only when no replacement happened: cancelled, or pi had no session control bound.
  if (result.cancelled) return stop(ctx, "cancelled", "Handoff cancelled; staying in this session.", "info");
  if (!replaced) return stop(ctx, "failed", "Handoff failed: pi did not start a new session.", "error");
  return { status: "started" };
}

export function registerHandoff(pi: ExtensionAPI, state: CairnState): void {
  pi.registerCommand("handoff", {
    description: "Start a fresh session from a cited brief of this one (keeps the notebook)",
    handler: async (args, ctx) => {
      await requestHandoff(ctx, state, args);
    },
  });
}

export function renderBriefMessage(brief: HandoffBrief, direction: string): string {
  return `# Handoff brief\n\nThis session continues earlier work. The brief below was built by ${PACKAGE_NAME} from the previous session; event ids in brackets cite where each fact came from.\n\n${brief.markdown.trim()}\n\n## Next\n\n${direction}`;
}

function stop(
  ctx: ExtensionCommandContext,
  status: HandoffStatus,
  message: string,
  level: "info" | "warning" | "error",
): HandoffResult {
  ctx.ui.notify(message, level);
  return { status, message };
}
