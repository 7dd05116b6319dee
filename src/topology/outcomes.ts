/**
 * Outcomes: how each user request ended, judged when the next request arrives (deterministic, no model):
 * - superseded: the next message corrects or rejects what was done ("no, …", "undo that", "use X instead");
 * - failed: the next message reports a failure (pastes one, "still failing", "doesn't work"), or the turn's last
 *   check failed, or its work failed after the last sign of success and the agent did not claim success;
 * - done: the user's next message says it worked, or a check passed last, or the agent reported success and
 *   nothing failed after;
 * - abandoned: the user moved on with neither: before any work (no tool call, no reply of substance), before any
 *   change (it only looked around), or while the agent was still at it (cut off, or its calls left without a reply).
 * The tracker's state is plain JSON inside the normalizer's, so outcomes stay resumable like everything else.
 */

export const OUTCOMES = ["done", "failed", "abandoned", "superseded"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface TurnTracker {
  /** The request being worked on. */
  request: { id: string; turn: number; text: string; question?: boolean } | null;
  tools: number;
  /** Tool calls the agent made for it, looking around included. */
  calls?: number;
  /** The agent's last message was cut off (aborted, or ended in an error). */
  cut?: boolean;
  /** The last check of the turn (id, whether it passed). */
  check: { id: string; pass: boolean } | null;
  /** The last failure of the turn and whether anything succeeded after it. */
  failure: { id: string; recovered: boolean } | null;
  /** The agent's last reply of the turn and whether it claims success or admits a failure. */
  reply: { id: string; claim: "success" | "failure" | null; words?: number } | null;
}

export function initialTurnTracker(): TurnTracker {
  return { request: null, tools: 0, check: null, failure: null, reply: null };
}

export interface OutcomeVerdict {
  request: string;
  turn: number;
  /** The request's words, clipped: the outcome is found by what was asked. */
  text: string;
  outcome: Outcome;
  /** Why, in a few words (the rule that fired). */
  why: string;
  /** The events the verdict rests on. */
  evidence: string[];
  /** The agent's last reply to the request, when it replied: what it said it did. */
  reply?: string;
}

const SUCCESS =
  /(?:^|[\s*✅])(?:done|fixed|works|working now|all (?:\d+ )?(?:tests|checks) pass(?:ed|ing)?|tests? pass(?:es|ed|ing)?|passes|succeeded|successfully|complete[ds]?|resolved|committed|pushed|merged|implemented|ready)\b|✅|🎉/i;
const FAILURE_CLAIM =
  /\b(?:still (?:fail|broken|error)|(?:could not|couldn'?t|can'?t|unable to) (?:fix|get|make|find|reproduce)|not (?:yet )?working|blocked by|fails? (?:with|because))/i;
/** The user says it did not work. */
const REPORTS_FAILURE =
  /\b(?:still (?:looks|is|shows|renders|happens|the same|wrong|there)\b|still (?:fail\w*|broken|crash\w*|error\w*|(?:not|doesn'?t|isn'?t|don'?t) work\w*|seeing|get(?:ting)?|the same)|(?:doesn'?t|does not|didn'?t|did not|isn'?t|is not|not) (?:work|fix|help|render|build|start|load|compile|run)\w*|same (?:error|issue|problem|thing)|(?:it|this|that) (?:broke|crashed|exploded|fails?|failed)|(?:got|get|getting|seeing) (?:an? )?(?:error|exception|crash)|something broke|broke\b|failing|wtf)/i;

/** The user's next message says again what the problem is ("the issue is for the token streaming"): not solved. */
const RESTATES_PROBLEM = /^\W*(?:no[\s,.]+)?the (?:real |actual |remaining )?(?:issue|problem|bug) (?:is|was)\b/i;

/** The user says it worked: at the start of their next message ("it seems to work. let's commit", "works now"). */
const CONFIRMS_SUCCESS =
  /^\W*(?:(?:ok(?:ay)?|great|nice|cool|perfect|awesome|yes|yep|yeah)\b[\s,.!]*)?(?:(?:it|that|this|everything)\s+(?:seems to |now |finally )?(?:works?|worked|is working)|works|worked|lgtm|looks good|that did it|that fixed it)\b(?![^.!?\n]*\bbut\b)/i;

const TEXT = 300;
/** Words that make a reply more than an acknowledgement ("Sure.", "On it"): a sentence that says something. */
const SUBSTANCE = 8;
/** What a request's text and kind are read from: far more than TEXT, so collapsed spaces still fill it. */
const HEAD = 4 * 1024;
/**
 * A request answered by looking rather than changing: a question, or an ask for information ("list the files",
 * "now show me the config", "TASK-2: explain …"). Reading around is its work, so a reply closes it.
 */
const QUESTION =
  /\?\s*$|^["'“‘(\s]*(?:[\w-]+:\s+)?(?:(?:ok(?:ay)?|now|also|then|and|please)[\s,]+)*(?:what|why|how|which|where|when|who|is|are|does|do|did|can|could|should|would|list|show|explain|describe|summari[sz]e|tell me|count|find out|look (?:at|into))\b/i;

export function onRequest(t: TurnTracker, id: string, turn: number, typed: string): void {
  // Only the head is kept and read for a leading question word; a long paste is not rewritten whole for it.
  const words = typed.slice(0, HEAD).replace(/\s+/g, " ").trim();
  t.request = { id, turn, text: words.length > TEXT ? `${words.slice(0, TEXT - 1)}…` : words };
  if (QUESTION.test(typed.length > HEAD ? typed : words)) t.request.question = true;
  t.tools = 0;
  t.calls = 0;
  t.cut = false;
  t.check = null;
  t.failure = null;
  t.reply = null;
}

export function onToolResult(t: TurnTracker, id: string, failed: boolean): void {
  if (!t.request) return;
  t.tools++;
  if (failed) t.failure = { id, recovered: false };
  else if (t.failure) t.failure.recovered = true;
}

export function onCheck(t: TurnTracker, id: string, status: string): void {
  if (!t.request || status === "unknown") return;
  t.check = { id, pass: status === "pass" };
  if (status === "pass" && t.failure) t.failure.recovered = true;
}

/** A tool call the agent made for the open request (a read too: looking is work on a request, if not a change). */
export function onCall(t: TurnTracker): void {
  if (t.request) t.calls = (t.calls ?? 0) + 1;
}

export function onReply(t: TurnTracker, id: string, text: string, cut = false): void {
  if (!t.request) return;
  t.cut = cut;
  if (text.trim() === "") return;
  // The end of a reply says how it went; the start often restates the task.
  const tail = text.slice(-1200);
  const claim = FAILURE_CLAIM.test(tail) ? "failure" : SUCCESS.test(tail) ? "success" : null;
  t.reply = { id, claim, words: Math.min(SUBSTANCE, text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length) };
}

/** The next typed message, as a request's verdict reads it. */
export interface NextMessage {
  id: string;
  typed: string;
  /** The whole message, what it pastes too (a trace's paths name what broke). */
  text?: string;
  /** It overturns what was done. */
  corrects: boolean;
  /** The errors derived from failing output it pastes (none: it pastes none). */
  pastedFailures: readonly string[];
}

/** The verdict on the open request, given the next typed message. Null when no request is open. */
export function closeRequest(t: TurnTracker, next: NextMessage | null): OutcomeVerdict | null {
  const r = t.request;
  if (!r) return null;
  const v = (outcome: Outcome, why: string, evidence: Array<string | null | undefined>): OutcomeVerdict => ({
    request: r.id,
    turn: r.turn,
    text: r.text,
    outcome,
    why,
    evidence: evidence.filter((x): x is string => typeof x === "string"),
    ...(t.reply ? { reply: t.reply.id } : {}),
  });
  const verdict = judge(t, next, v);
  t.request = null;
  return verdict;
}

/** What an outcome event keeps in `meta`: the verdict, why, what it rests on and the reply it read. */
export function outcomeMeta(v: OutcomeVerdict): Record<string, unknown> {
  return { outcome: v.outcome, why: v.why, evidence: v.evidence, ...(v.reply ? { reply: v.reply } : {}) };
}

/** Words (of four letters or more) too common in requests and reports to tell what either is about. */
const GENERIC =
  /^(?:still|again|something|anything|everything|thing|things|this|that|there|these|those|what|when|where|which|with|without|from|into|about|after|before|just|also|like|looks?|seems?|appears?|getting|making|make|made|work\w*|broke\w*|break\w*|fail\w*|error\w*|crash\w*|issue\w*|problem\w*|same|doesn|didn|aren|wasn|does|have|having|been|being|here|please|then|your|mine|ours|they|them|their|would|could|should|will|cant|wont)$/i;

/** The content words of a text, by their first five letters (so "streams" and "streaming" meet). */
function subjectWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? []) if (!GENERIC.test(w)) out.add(w.slice(0, 5));
  return out;
}

/**
 * Whether a failure the user reports is about something else than a request whose own work ended well (its last
 * check passed, or the agent reported success with nothing failing after): the report names things, in its words
 * or what it pastes (a trace's paths), and none of them is in the request ("something broke streaming" after "fix
 * the knip audit" that passed). Such a report is a new problem, not this request's outcome; a report naming
 * nothing ("still doesn't work") is about it.
 */
function elsewhere(t: TurnTracker, said: string): boolean {
  const ended = t.check ? t.check.pass : t.reply?.claim === "success" && !(t.failure && !t.failure.recovered);
  if (!ended || !t.request) return false;
  const report = subjectWords(said.slice(0, 2000));
  if (report.size < 2) return false;
  const asked = subjectWords(t.request.text);
  for (const w of report) if (asked.has(w)) return false;
  return true;
}

function judge(
  t: TurnTracker,
  next: NextMessage | null,
  v: (o: Outcome, why: string, evidence: Array<string | null | undefined>) => OutcomeVerdict,
): OutcomeVerdict {
  if (next?.corrects) return v("superseded", "the user corrected it", [next.id]);
  if (
    next &&
    (next.pastedFailures.length > 0 ||
      REPORTS_FAILURE.test(next.typed.slice(0, 400)) ||
      RESTATES_PROBLEM.test(next.typed)) &&
    !elsewhere(t, next.text ?? next.typed)
  )
    // the report, what it pasted (the error as it was seen), then the turn's own last failure
    return v("failed", "the user reported a failure", [next.id, ...next.pastedFailures, t.failure?.id]);
  // Their own eyes outrank the last tool call: "it seems to work" after an interrupted read.
  if (next && CONFIRMS_SUCCESS.test(next.typed.slice(0, 200)))
    return v("done", "the user confirmed it worked", [next.id, t.check?.id]);
  if (t.check && !t.check.pass) return v("failed", "the last check failed", [t.check.id]);
  if (t.failure && !t.failure.recovered && t.reply?.claim !== "success")
    return v("failed", "its work failed last", [t.failure.id, t.reply?.id]);
  if (t.reply?.claim === "failure") return v("failed", "the agent reported a failure", [t.reply.id]);
  if (t.check?.pass) return v("done", "a check passed last", [t.check.id, t.reply?.id]);
  if (t.reply?.claim === "success") return v("done", "the agent reported success", [t.reply.id]);
  // A question (or an ask to look something up) is done once answered; a request for work nobody did was left.
  if (t.reply && t.tools === 0 && t.request?.question) return v("done", "answered", [t.reply.id]);
  if (t.tools > 0 && t.reply) return v("done", "the agent finished without a failure", [t.reply.id]);
  const calls = t.calls ?? 0;
  if (t.cut && (t.reply || calls > 0)) return v("abandoned", "cut off mid-work", [next?.id, t.reply?.id]);
  if (calls > 0 && !t.reply) return v("abandoned", "the user moved on mid-work", [next?.id]);
  // A reply of substance answered what was asked (the analysis, the text written in chat), if it changed nothing.
  if (t.reply && (t.reply.words ?? 0) >= SUBSTANCE) return v("done", "answered", [t.reply.id]);
  // It looked around and said little ("I looked at math.js."): the change asked for was not made.
  if (calls > 0) return v("abandoned", "the user moved on before any change", [next?.id, t.reply?.id]);
  if (t.reply) return v("abandoned", "the user moved on before any work", next ? [next.id, t.reply.id] : []);
  return v("abandoned", "the user moved on", next ? [next.id] : []);
}
