/**
 * The shapes decision rules produce, apart from the tracker (decisions.ts) so that the rule files it calls
 * (decision-user.ts, decision-agent.ts) need not import it back.
 */

export const DECISION_RULES = [
  "user_correction",
  "user_rejection",
  "user_redirect",
  "user_choice",
  "user_approval",
  "assistant_decision",
  "assistant_choice",
  "assistant_review",
  "assistant_defer",
  "assistant_restates",
  "plan_file",
] as const;
export type DecisionRule = (typeof DECISION_RULES)[number];

export interface DecisionCandidate {
  rule: DecisionRule;
  text: string;
  who: "user" | "agent";
  chosen?: string;
  rejected?: string;
  /** It overturns the agent's latest decision or proposal ("no, …", "bad idea", "undo that"). */
  rejectsPrevious?: true;
  /** It approves the proposal the agent's question made. */
  approves?: true;
  /** The event id of the decision it takes up. */
  restates?: string;
}

/** What the agent's latest reply asked the user, for reading the answer. */
export interface AskContext {
  /** It proposes work or a design and asks whether, or which. */
  proposal: boolean;
  /** It asks only whether to go on (continue, proceed, commit, push …). */
  procedural: boolean;
  /** Words of its closing question, for a reply that picks one of the options it named. */
  words: string[];
}
