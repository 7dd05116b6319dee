/**
 * `/readonly [on|off]`: blocks the tools that write (tool-policy.ts), guards the model's `bash` and the user's own
 * `!` commands (user-bash.ts) with the write classifier plus the OS sandbox where one works. Alone the slash command toggles; `on` and `off` say what they mean, which is what a sequence step
 * needs (a toggle in step 1 would turn the mode off in a session where it is already on). The mode is branch state
 * (see readonly-state.ts) and is announced to the model as a system-prompt section, so the tools stay advertised and
 * the prompt prefix changes only when the mode does.
 */
import type { BashToolCallEvent, ExtensionAPI, ExtensionContext, ToolCallEvent } from "@earendil-works/pi-coding-agent";
import type { CairnState } from "../state.ts";
import { classifyBash } from "./bash-classifier.ts";
import { parseReadonlyArgs, READONLY_ENTRY_TYPE, READONLY_STATUS_TEXT, type ReadonlyEntry } from "./readonly-state.ts";
import { wrapInBwrap } from "./sandbox.ts";
import { readonlyToolVerdict, toolHints } from "./tool-policy.ts";
import { guardUserBash } from "./user-bash.ts";

export const READONLY_STATUS_KEY = "cairn-readonly";
const PROMPT_SECTION = "cairn_readonly";

export const READONLY_USAGE = "Usage: /readonly [on|off] (without an argument it toggles)";

export interface ReadonlyToggleResult {
  enabled: boolean;
}

export type ReadonlyCommandResult = { ok: true; enabled: boolean } | { ok: false; message: string };

/** `/readonly [on|off]`. Shared by the slash command and the sequence runner. */
export async function runReadonlyCommand(
  ctx: ExtensionContext,
  state: CairnState,
  args: string,
): Promise<ReadonlyCommandResult> {
  const argument = parseReadonlyArgs(args);
  if (!argument) {
    ctx.ui.notify(READONLY_USAGE, "error");
    return { ok: false, message: READONLY_USAGE };
  }
  const enabled = argument === "toggle" ? !state.readonly.enabled : argument === "on";
  return { ok: true, ...(await setReadonly(ctx, state, enabled)) };
}

/** Flip read-only mode for the current branch (the slash command without an argument). */
export async function runReadonlyToggle(ctx: ExtensionContext, state: CairnState): Promise<ReadonlyToggleResult> {
  return setReadonly(ctx, state, !state.readonly.enabled);
}

/** Put read-only mode in the given state; asking for the mode that is already on (or off) changes nothing. */
export async function setReadonly(
  ctx: ExtensionContext,
  state: CairnState,
  enabled: boolean,
): Promise<ReadonlyToggleResult> {
  if (state.readonly.enabled === enabled) {
    showReadonlyStatus(ctx, state);
    ctx.ui.notify(`Read-only mode is already ${enabled ? "on" : "off"}.`, "info");
    return { enabled };
  }
  state.readonly.enabled = enabled;
  const entry: ReadonlyEntry = { version: 1, enabled, updatedAt: state.services.now() };
  state.api.appendEntry(READONLY_ENTRY_TYPE, entry);
  showReadonlyStatus(ctx, state);
  ctx.ui.notify(
    enabled ? enabledNotice(state) : "Read-only mode off: tools and ! commands work normally again.",
    "info",
  );
  return { enabled };
}

export function showReadonlyStatus(ctx: ExtensionContext, state: CairnState): void {
  ctx.ui.setStatus(READONLY_STATUS_KEY, state.readonly.enabled ? READONLY_STATUS_TEXT : undefined);
}

export function registerReadonly(pi: ExtensionAPI, state: CairnState): void {
  pi.registerCommand("readonly", {
    description: "Read-only mode: on, off, or toggle without an argument (blocks file writes by tools and ! commands)",
    getArgumentCompletions: readonlyCompletions,
    handler: async (args, ctx) => {
      await runReadonlyCommand(ctx, state, args);
    },
  });

  pi.on("tool_call", (event, ctx) => {
    if (!state.readonly.enabled) return undefined;
    const tool = readonlyToolVerdict(event.toolName, () => toolHints(findTool(pi, event.toolName)));
    if (tool.kind === "block") {
      return {
        block: true,
        reason: `Read-only mode is on: ${event.toolName} is blocked (${tool.reason}). Ask the user to run /readonly off to leave it.`,
      };
    }
    if (!isBashCall(event)) return undefined;
    const verdict = classifyBash(event.input.command);
    if (verdict.writes) {
      return { block: true, reason: `Read-only mode is on: this command ${verdict.reason ?? "writes files"}.` };
    }
    if (state.services.sandbox().kind === "bwrap") event.input.command = wrapInBwrap(event.input.command, ctx.cwd);
    return undefined;
  });

  pi.on("user_bash", (event) => guardUserBash(event, state));

  pi.on("before_agent_start", (event) => {
    const sections = event.systemPromptOptions.sections;
    if (state.readonly.enabled) {
      sections[PROMPT_SECTION] =
        "Read-only mode is on. Do not modify files: write, edit and powershell are blocked, and bash commands that write are blocked or run in a read-only sandbox. Investigate, read and report.";
    } else {
      delete sections[PROMPT_SECTION];
    }
    return undefined;
  });
}

/**
 * `on` and `off`, but nothing once the argument is complete: pi's editor applies an open completion list on Enter
 * instead of submitting, so a list still open on the exact `on` made `/readonly on` take two Enters.
 */
function readonlyCompletions(prefix: string): Array<{ value: string; label: string }> | null {
  const typed = prefix.trim().toLowerCase();
  if (typed === "on" || typed === "off") return null;
  const items = ["on", "off"].filter((value) => value.startsWith(typed));
  return items.length > 0 ? items.map((value) => ({ value, label: value })) : null;
}

function findTool(pi: ExtensionAPI, name: string): object | undefined {
  return pi.getAllTools().find((tool) => tool.name === name);
}

function enabledNotice(state: CairnState): string {
  const sandbox = state.services.sandbox();
  const bash =
    sandbox.kind === "bwrap"
      ? "bash and ! commands run in a read-only bwrap sandbox"
      : `bash and ! commands are checked by a write classifier only (${sandbox.detail ?? "no sandbox"})`;
  return `Read-only mode on: write, edit and powershell are blocked; ${bash}.`;
}

/** pi's `isToolCallEventType("bash", …)`, without loading pi's module for it. */
function isBashCall(event: ToolCallEvent): event is BashToolCallEvent {
  return event.toolName === "bash";
}
