/**
 * The command metadata a step is resolved against: whatever `pi.getCommands()` reports right now for this
 * instance, plus which of the extension's own commands cannot work in this build.
 */
import { HANDOFF_UNAVAILABLE_REASON } from "../handoff/handoff.ts";
import type { CairnState } from "../state.ts";
import { type CommandCatalog, createCommandCatalog } from "./resolve.ts";
import type { AgenticodingCommandName } from "./types.ts";

export function currentCatalog(state: CairnState): CommandCatalog {
  const unavailable = new Map<AgenticodingCommandName, string>();
  if (!state.services.briefs) unavailable.set("handoff", HANDOFF_UNAVAILABLE_REASON);
  return createCommandCatalog(state.api.getCommands(), unavailable);
}
