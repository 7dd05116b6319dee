/**
 * Decision status (resume-method §4.4). The topology finds decision candidates; here each gets a status:
 * - superseded: a later decision shares at least two topic tokens (paths, identifiers), or the user's next message
 *   after an assistant's decision corrects it;
 * - settled: the user made it, or approved it in the next message;
 * - open: otherwise.
 */
import type { SessionEvent } from "../topology/types.ts";
import type { DecisionStatus, LedgerDecision } from "./ledger-types.ts";
import { isRequest } from "./requests.ts";

const APPROVAL =
  /^(ok|okay|yes|yep|yeah|sure|sounds good|lgtm|looks good|great|perfect|agreed|approved|go ahead|do it|continue|proceed|ship it)\b/i;
const CORRECTION = /^(no|nope|not quite|wrong|wait|stop|don'?t|instead)\b/i;

/** Tokens that name a topic: paths, file names and code identifiers, not plain words. */
export function topicTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\w$@~./-]+/g)) {
    const t = m[0].replace(/^[./]+|[.,:;]+$/g, "");
    if (t.length < 3) continue;
    if (/[/.]\w/.test(t) || /[a-z][A-Z]|_\w/.test(t) || /^[A-Z][a-z]+[A-Z]/.test(t)) out.add(t.toLowerCase());
  }
  return out;
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
}

export function decisionsOf(events: readonly SessionEvent[]): LedgerDecision[] {
  const decisions = events.filter((e) => e.event_type === "decision");
  const requests = events.filter(isRequest);
  const topics = decisions.map((d) => topicTokens(d.text));
  return decisions.map((d, i) => {
    const rule = typeof d.meta["rule"] === "string" ? (d.meta["rule"] as string) : "unknown";
    const byUser = rule.startsWith("user_");
    let status: DecisionStatus = byUser ? "settled" : "open";
    let by: string | null = byUser ? d.event_id : null;
    const cites = [d.event_id];
    if (!byUser) {
      const next = requests.find((r) => r.ordinal > d.ordinal);
      if (next && CORRECTION.test(next.text.trim())) {
        status = "superseded";
        by = next.event_id;
      } else if (next && APPROVAL.test(next.text.trim())) {
        status = "settled";
        by = next.event_id;
      }
    }
    for (let j = i + 1; j < decisions.length; j++) {
      if (shared(topics[i]!, topics[j]!) >= 2) {
        status = "superseded";
        by = decisions[j]!.event_id;
        break;
      }
    }
    if (by && by !== d.event_id) cites.push(by);
    return { text: d.text.trim(), status, rule, ordinal: d.ordinal, by, cites };
  });
}
