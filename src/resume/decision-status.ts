/**
 * Decision status for the ledger (resume-method §4.4). The topology finds decisions and links each to the one it
 * supersedes or restates (`topology/decision-status.ts`); here a ledger line is made per decision that is not a
 * restatement (restatements add their ids to its citations), with a status:
 * - superseded: a later decision replaced it;
 * - settled: the user made it, or the user's next message let it stand (approved it, or went on without
 *   overturning it: a correction would have superseded it);
 * - open: the agent made it and the user has not spoken since.
 */
import { decidedBy, decisionLinks } from "../topology/decision-status.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { DecisionStatus, LedgerDecision } from "./ledger-types.ts";
import { isRequest } from "./requests.ts";

export function decisionsOf(events: readonly SessionEvent[]): LedgerDecision[] {
  const decisions = events.filter((e) => e.event_type === "decision");
  const links = decisionLinks(decisions);
  const requests = events.filter(isRequest);
  const out: LedgerDecision[] = [];
  for (const d of decisions) {
    const link = links.get(d.event_id)!;
    if (link.restates && links.has(link.restates)) continue;
    const rule = typeof d.meta["rule"] === "string" ? (d.meta["rule"] as string) : "unknown";
    const who = decidedBy(d);
    let status: DecisionStatus = who === "user" ? "settled" : "open";
    let by: string | null = status === "settled" ? d.event_id : null;
    if (link.status === "superseded") {
      status = "superseded";
      by = link.by;
    } else if (status === "open") {
      const next = requests.find((r) => r.ordinal > d.ordinal);
      if (next) {
        status = "settled";
        by = next.event_id;
      }
    }
    const cites = [d.event_id, ...link.restatedBy];
    if (by && !cites.includes(by)) cites.push(by);
    out.push({ text: d.text.trim(), status, rule, ordinal: d.ordinal, by, cites, who, source: d.parent_event_id });
  }
  return out;
}
