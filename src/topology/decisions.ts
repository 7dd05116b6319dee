/**
 * Decisions, found by explicit rules (no model) and measured on hand-labelled real sessions
 * (`bench/decision-eval`): the user steering, choosing or answering the agent's question (`decision-user.ts`), the
 * agent stating a choice or recommendation (`decision-agent.ts`) or taking up the user's (a restatement), a
 * "Decision" section of a plan file. A notebook page is none of these: it is the notebook (resume/notebook.ts). Each keeps the rule that fired, who decided, what was
 * chosen and rejected where the text says so, and which earlier decision it restates or supersedes; the status
 * (in force / superseded) follows from those links (`decision-status.ts`).
 *
 * The tracker's state is plain JSON inside the normalizer's, so decisions stay resumable like everything else.
 */
import { assistantDecisions, contrastLine, restatesUser } from "./decision-agent.ts";
import { sentences, sharedTerms, subjectTerms } from "./decision-text.ts";
import type { AskContext, DecisionCandidate } from "./decision-types.ts";
import { userDecision } from "./decision-user.ts";
import { clip } from "./text.ts";

export {
  type AskContext,
  DECISION_RULES,
  type DecisionCandidate,
  type DecisionRule,
} from "./decision-types.ts";

interface RecentDecision {
  id: string;
  turn: number;
  who: "user" | "agent";
  terms: string[];
  chosen: string;
  /** The decision this one restates, when it does. */
  origin: string | null;
}

export interface DecisionState {
  ask: AskContext | null;
  /** The latest user message's decision, until the agent's first reply to it has been read. */
  pendingUser: { id: string } | null;
  /** The latest user message corrected a fact ("no, it's not phase 1"): the agent's next plan is its choice. */
  corrected?: boolean;
  /** The latest user message proposed something as a question ("could we have a file watcher?"). */
  userProposed?: boolean;
  recent: RecentDecision[];
}

export function initialDecisionState(): DecisionState {
  return { ask: null, pendingUser: null, recent: [] };
}

const RECENT = 24;

/** Decisions in a typed user message (at most one), read against what the agent last asked. */
export function onUserMessage(state: DecisionState, typed: string): DecisionCandidate[] {
  const d = userDecision(typed, state.ask);
  state.ask = null;
  state.pendingUser = null;
  state.corrected = !d && correctsFact(typed);
  state.userProposed = !d && USER_PROPOSAL.test(typed.slice(0, 2000));
  if (!d) return [];
  if (d.approves) {
    const proposal = [...state.recent].reverse().find((r) => r.who === "agent");
    if (proposal) d.chosen ??= proposal.chosen;
  }
  return [d];
}

/**
 * Decisions in an assistant message: a restatement of the user's decision just made, then its own. `reread` is
 * given when the message was read before (it grew over several lines): the decision it restated then, or null.
 */
export function onAssistantMessage(
  state: DecisionState,
  text: string,
  turn: number,
  reread?: string | null,
): DecisionCandidate[] {
  if (text.trim() === "") return [];
  const out: DecisionCandidate[] = [];
  const pending = reread === undefined ? state.pendingUser?.id : reread;
  const corrected = reread === undefined && state.corrected === true;
  // "could we have a file watcher?" — "Yes! Node has fs.watch built in. Let me add a file watcher": the agent
  // takes up the user's proposal as the plan. A fix ("Yes, let me fix this") chooses nothing.
  const adopts = reread === undefined && !pending && !corrected && state.userProposed === true && AGREES.test(text);
  if (reread === undefined) {
    state.pendingUser = null;
    state.corrected = false;
    state.userProposed = false;
  }
  const restated = pending || corrected ? restatesUser(text) : adopts ? restatesUser(text, { noFix: true }) : null;
  if (restated && pending) out.push({ rule: "assistant_restates", text: restated, who: "user", restates: pending });
  else if (restated) out.push({ rule: "assistant_choice", text: restated, who: "agent", chosen: restated });
  for (const d of assistantDecisions(text)) {
    // "Perfect! Let's use unified tracking …" takes up the user's choice; it is not a second one.
    if (restated?.includes(d.text) || (restated && d.text.includes(restated))) continue;
    if (out.length < 3) out.push(d);
  }
  if (out.length === 0) {
    const again = sameTurnRestatement(state, text, turn);
    if (again) out.push(again);
  }
  state.ask = askOf(text);
  return out;
}

/**
 * A summary later in the same turn that sets the chosen design against the dropped one ("much cleaner than the
 * original JSONL approach") and shares its subject with the turn's decision restates that decision.
 */
function sameTurnRestatement(state: DecisionState, text: string, turn: number): DecisionCandidate | null {
  const latest = state.recent.at(-1);
  if (!latest || latest.turn !== turn) return null;
  const line = contrastLine(text);
  if (!line) return null;
  const origin = latest.origin ? state.recent.find((r) => r.id === latest.origin) : undefined;
  const terms = origin ? [...new Set([...latest.terms, ...origin.terms])] : latest.terms;
  if (sharedTerms(terms, subjectTerms(text.slice(0, 3000))) < 2) return null;
  return {
    rule: "assistant_restates",
    text: line,
    who: latest.who,
    chosen: line,
    restates: latest.origin ?? latest.id,
  };
}

/** A proposal put as a question: "could we have a file watcher …?", "what about a separate token?". */
const USER_PROPOSAL =
  /\b(?:could|can|should|shall|shouldn'?t|couldn'?t) we\b[^.?!]{3,200}\?|\b(?:what|how) about\b[^.?!]{3,200}\?|\bwhy not\b[^.?!]{3,200}\?/i;
/** The agent says yes to it. */
const AGREES = /^\W*(?:yes|yeah|yep|sure|absolutely|definitely|good idea|great idea|good call|great call)\b/i;

const FACT_CORRECTION = /^(?:no|nope|not quite|wrong)\b[,.!:;-]*\s+(?:it'?s|it is|that'?s|that is|this is|there)\b/i;

function correctsFact(typed: string): boolean {
  return FACT_CORRECTION.test(typed.slice(0, 200).trim());
}

/**
 * Records a decision once it has an event id and says which earlier one it supersedes: the agent's latest
 * decision when this one overturns it, else the newest earlier decision on the same subject (two shared subject
 * words). A restatement supersedes nothing.
 */
export function recordDecision(
  state: DecisionState,
  d: DecisionCandidate,
  id: string,
  turn: number,
): { supersedes: string | null } {
  const terms = subjectTerms(`${d.chosen ?? ""} ${d.rejected ?? ""} ${d.text}`);
  let supersedes: string | null = null;
  if (!d.restates) {
    const earlier = state.recent.filter((r) => r.id !== id).reverse();
    const target = d.rejectsPrevious
      ? earlier.find((r) => r.who === "agent" && turn - r.turn <= 1)
      : earlier.find((r) => sharedTerms(r.terms, terms) >= 2);
    if (target) supersedes = target.origin ?? target.id;
  }
  const entry = { id, turn, who: d.who, terms, chosen: clip(d.chosen ?? d.text, 200), origin: d.restates ?? null };
  const again = state.recent.findIndex((r) => r.id === id);
  if (again !== -1) state.recent[again] = entry;
  else state.recent.push(entry);
  if (state.recent.length > RECENT) state.recent.shift();
  if (d.who === "user" && !d.restates && d.rule.startsWith("user_")) state.pendingUser = { id };
  return { supersedes };
}

const PROPOSAL =
  /\b(?:should i|shall i|would you like|do you want|want me to|would you prefer|or would you|which (?:one|option|approach|do you)|what'?s your preference|should we|do you prefer)\b/i;
const PROCEDURAL =
  /\b(?:continue|proceed|go ahead|carry on|finish|commit|push|publish|release|deploy|merge|keep going)/i;
const ASK_STOP = new Set(
  "the and for you your with that this should would like want what which shall prefer option options or do does it its are was were will can could have has had from into then them they there their our we us me my now actually also just really still maybe here".split(
    " ",
  ),
);

/** What the closing question of an agent's reply asks, if it ends with one. */
export function askOf(text: string): AskContext | null {
  const tail = text.trim().slice(-700);
  // Most replies ask nothing: without a question mark no sentence is a question.
  if (!tail.includes("?")) return null;
  const qs = sentences(tail).filter((s) => s.includes("?"));
  if (qs.length === 0) return null;
  const last = qs[qs.length - 1]!;
  if (!tail.trimEnd().endsWith("?") && sentences(tail).at(-1) !== last) return null;
  const question = qs.slice(-2).join(" ");
  // The options are named in the question and in the lines just before it ("I'd suggest `version:minor`").
  const lines = tail.split("\n").filter((l) => l.trim() !== "");
  const named = [...lines.slice(-4).filter((l) => !l.includes("?")), question].join(" ");
  const words = new Set<string>();
  for (const m of named.toLowerCase().matchAll(/[a-z][a-z0-9_-]{2,}/g)) {
    const w = m[0];
    if (!ASK_STOP.has(w) && !PROCEDURAL.test(w)) words.add(w);
  }
  return {
    proposal: PROPOSAL.test(question),
    procedural: PROCEDURAL.test(question) && !/\bor\b/i.test(question),
    words: [...words].slice(0, 80),
  };
}

const PLAN_FILE =
  /(^|\/)(plan|plans|decisions?|adr|design|architecture|notes|todo|roadmap)[^/]*\.md$|(^|\/)(adr|decisions)\/[^/]+\.md$/i;

export function isPlanFile(path: string): boolean {
  return PLAN_FILE.test(path);
}

/** "Decision" sections of a written plan or ADR file: the heading's first paragraph. */
export function planFileDecisions(content: string): DecisionCandidate[] {
  const out: DecisionCandidate[] = [];
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,4}\s+(.*\b(decision|decided|adr\b)[^\n]*)$/i.exec(lines[i]!);
    if (!h) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && body.length < 6; j++) {
      const l = lines[j]!.trim();
      if (l.startsWith("#")) break;
      if (l === "" && body.length > 0) break;
      if (l !== "") body.push(l);
    }
    const chosen = body.join(" ");
    out.push({
      rule: "plan_file",
      text: clip(`${h[1]!.trim()}: ${chosen}`, 600),
      who: "agent",
      chosen: clip(chosen, 300),
    });
    if (out.length >= 5) break;
  }
  return out;
}
