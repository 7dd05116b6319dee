/**
 * The status of each decision of a session, from the links the normalizer recorded: a decision is superseded
 * when a later one names it in `meta.supersedes` (a restatement shares its origin's status), else it is in force.
 */
import type { SessionEvent } from "./types.ts";

export interface DecisionLink {
  status: "in_force" | "superseded";
  /** The decision that superseded it. */
  by: string | null;
  /** The decision it restates, when it does. */
  restates: string | null;
  /** Later decisions that restate it. */
  restatedBy: string[];
}

/** Status and links of every decision event among `events` (in timeline order). */
export function decisionLinks(events: readonly SessionEvent[]): Map<string, DecisionLink> {
  const out = new Map<string, DecisionLink>();
  for (const e of events) {
    if (e.event_type !== "decision") continue;
    const restates = typeof e.meta["restates"] === "string" ? (e.meta["restates"] as string) : null;
    out.set(e.event_id, { status: "in_force", by: null, restates, restatedBy: [] });
    if (restates) out.get(restates)?.restatedBy.push(e.event_id);
    const target = typeof e.meta["supersedes"] === "string" ? out.get(e.meta["supersedes"] as string) : undefined;
    if (target && target.status === "in_force") {
      target.status = "superseded";
      target.by = e.event_id;
    }
  }
  for (const link of out.values()) {
    const origin = link.restates ? out.get(link.restates) : undefined;
    if (origin && origin.status === "superseded") {
      link.status = "superseded";
      link.by = origin.by;
    }
  }
  return out;
}

/** Who made a decision: recorded by the normalizer, or read from its rule in an older index (`notebook_page` too). */
export function decidedBy(e: SessionEvent): "user" | "agent" {
  const who = e.meta["who"];
  if (who === "user" || who === "agent") return who;
  const rule = typeof e.meta["rule"] === "string" ? (e.meta["rule"] as string) : "";
  return rule.startsWith("user_") || rule === "notebook_page" ? "user" : "agent";
}
