/**
 * The command metadata a step is resolved against: whatever `pi.getCommands()` reports right now for this
 * instance, plus which of cairn's own commands cannot work in this build.
 */
import { HANDOFF_UNAVAILABLE_REASON } from "../handoff/handoff.ts";
import type { CairnState } from "../state.ts";
import { type CommandCatalog, createCommandCatalog } from "./resolve.ts";
import type { CairnCommandName } from "./types.ts";

export function currentCatalog(state: CairnState): CommandCatalog {
  const unavailable = new Map<CairnCommandName, string>();
  if (!state.services.briefs) unavailable.set("handoff", HANDOFF_UNAVAILABLE_REASON);
  return createCommandCatalog(state.api.getCommands(), unavailable);
}
