/**
 * The one rule for ids typed by hand, for sessions, events and threads alike: an exact id wins; otherwise a prefix
 * must name exactly one. No match is `not_found`; several are `ambiguous_id`, and the error lists them, so the
 * user (or agent) can pick one. Every surface resolves through here, through the application layer.
 */
import { CairnError } from "../common/errors.ts";
import { stripCitation } from "../topology/citation.ts";
import { type SessionEvent, WORK_KINDS } from "../topology/types.ts";
import type { ReadonlyStore, SessionRow } from "./types.ts";

export const ID_KINDS = ["session", "event", "thread"] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Candidates an ambiguity error lists. */
const SHOWN = 5;

const HINTS: Record<IdKind, string> = {
  session: "'cairn sessions' lists sessions",
  event: "'cairn search' finds events by what they say",
  thread: "'cairn threads --all' lists threads",
};

/** An id that names nothing, or more than one thing. */
export class IdError extends CairnError {
  override name = "IdError";
  readonly kind: IdKind;
  readonly ref: string;
  /** The ids a prefix matched (at most a few), empty when none did. */
  readonly candidates: string[];
  constructor(code: "not_found" | "ambiguous_id", kind: IdKind, ref: string, message: string, candidates: string[]) {
    super(code, message, code === "ambiguous_id" ? "give more of the id" : HINTS[kind]);
    this.kind = kind;
    this.ref = ref;
    this.candidates = candidates;
  }
}

/**
 * Applies the rule: `exact` is the item with exactly this id (if any), `matches` the items whose id starts with it
 * (fetch one more than `SHOWN` so an ambiguity can say there are more).
 */
export function pickById<T>(
  kind: IdKind,
  ref: string,
  exact: T | undefined,
  matches: () => readonly T[],
  idOf: (item: T) => string,
  /** Where the search was confined, for the messages (e.g. `in session …`). */
  scope = "",
): T {
  if (ref === "") throw new CairnError("usage", `give a ${kind} id or a unique prefix of one`, HINTS[kind]);
  if (exact !== undefined) return exact;
  const found = matches();
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new IdError("not_found", kind, ref, `no ${kind} matches '${ref}'${scope}`, []);
  const ids = found.slice(0, SHOWN).map(idOf);
  const more = found.length > SHOWN ? ", …" : "";
  throw new IdError(
    "ambiguous_id",
    kind,
    ref,
    `'${ref}' matches ${found.length > SHOWN ? `more than ${SHOWN}` : found.length} ${kind}s${scope}: ${ids.join(", ")}${more}`,
    ids,
  );
}

/** Sessions a prefix is compared against at most: a parent with many subagents is still told apart. */
const PREFIX_ROWS = 500;

/**
 * The sessions a prefix names. A session's subagents (and the continuations it spawned) carry their parent's id
 * at the front, or were started the same minute (time-ordered ids share their leading digits): a prefix that
 * matches one session and only sessions under it names that session, so the short id printed for a parent
 * resolves to it and not to "3 sessions".
 */
function sessionsByPrefix(store: Pick<ReadonlyStore, "listSessions">, prefix: string): SessionRow[] {
  const found = store.listSessions({ idPrefix: prefix, limit: PREFIX_ROWS });
  if (found.length <= 1) return found;
  const roots = new Set(found.map((s) => rootOf(s, found)));
  const root = roots.size === 1 ? found.find((s) => roots.has(s.session_id)) : undefined;
  return root ? [root] : found;
}

/** The outermost session among `rows` that `s` descends from (through parent_session_id), or its own id. */
function rootOf(s: SessionRow, rows: readonly SessionRow[]): string {
  let at = s;
  for (let hops = 0; at.parent_session_id !== null && hops < 16; hops++) {
    const up = rows.find((r) => r.session_id === at.parent_session_id);
    if (!up) return at.parent_session_id;
    at = up;
  }
  return at.session_id;
}

/** A session by id or unique prefix (a prefix of a session and its subagents names the session). */
export function resolveSessionId(store: Pick<ReadonlyStore, "getSession" | "listSessions">, ref: string): SessionRow {
  const id = ref.trim();
  return pickById(
    "session",
    id,
    id === "" ? undefined : store.getSession(id),
    () => sessionsByPrefix(store, id).slice(0, SHOWN + 1),
    (s) => s.session_id,
  );
}

/** The fewest leading characters of a session's id (at least `min`) that name it, by `resolveSessionId`'s rule. */
export function shortSessionId(store: Pick<ReadonlyStore, "getSession" | "listSessions">, id: string, min = 8): string {
  if (id.length <= min) return id;
  const near = store.listSessions({ idPrefix: id.slice(0, min), limit: PREFIX_ROWS });
  // An id the index does not hold (a transcript read but not indexed) is printed whole.
  if (!near.some((s) => s.session_id === id)) return id;
  const view = {
    getSession: (sid: string) => near.find((s) => s.session_id === sid),
    listSessions: (f: { idPrefix?: string; limit?: number }) =>
      near.filter((s) => s.session_id.startsWith(f.idPrefix ?? "")).slice(0, f.limit),
  };
  for (let n = min; n < id.length; n++) {
    const prefix = id.slice(0, n);
    // A prefix that is itself another session's whole id names that session.
    if (near.some((s) => s.session_id === prefix)) continue;
    // Nor does one ending in a separator (`<parent>:`), which reads as the id before it.
    if (/[-:_.]$/.test(prefix)) continue;
    const found = sessionsByPrefix(view as Pick<ReadonlyStore, "listSessions">, prefix);
    if (found.length === 1 && found[0]!.session_id === id) return prefix;
  }
  return id;
}

/**
 * An event by id or unique prefix; a citation (`[e:ID]`) is accepted as written. With `sessionId`, only that
 * session's events count, and an exact id from another session is an error that says where it belongs.
 */
export function resolveEventId(
  store: Pick<ReadonlyStore, "getEvent" | "findEvents">,
  ref: string,
  opts: { sessionId?: string } = {},
): SessionEvent {
  const id = stripCitation(ref);
  const exact = id === "" ? undefined : store.getEvent(id);
  if (exact && opts.sessionId !== undefined && exact.session_id !== opts.sessionId)
    throw new IdError(
      "not_found",
      "event",
      ref,
      `event ${exact.event_id} belongs to session ${exact.session_id}, not ${opts.sessionId}`,
      [],
    );
  const inSession = (events: SessionEvent[]) =>
    opts.sessionId === undefined ? events : events.filter((e) => e.session_id === opts.sessionId);
  return pickById(
    "event",
    id,
    exact,
    // Event ids begin with their session's digits, so a session's events share a prefix: look further for them.
    () => inSession(store.findEvents(id, opts.sessionId === undefined ? SHOWN + 1 : 50)).slice(0, SHOWN + 1),
    (e) => e.event_id,
    opts.sessionId === undefined ? "" : ` in session ${opts.sessionId}`,
  );
}

/**
 * The newest work, anywhere or in one folder (`cwd`, compared without a trailing slash): of the sessions a person
 * works in (`WORK_KINDS`: main, fork, exec, a compaction's continuation), the one with the newest activity. A
 * subagent's activity is its parent's: when a subagent was the last active, the session it belongs to is the
 * latest. Every surface that takes "the latest session" (resume without a session, `--cwd`, MCP, web, terminal UI,
 * hooks) gets it here.
 */
export function latestSession(store: Pick<ReadonlyStore, "listSessions" | "getSession">, cwd?: string): SessionRow {
  const want = cwd === undefined ? null : trimSlash(cwd);
  const project = want === null ? undefined : [want.slice(want.lastIndexOf("/") + 1)];
  // Sessions come newest first; the project filter narrows the scan before the exact folder comparison.
  const rows = store.listSessions({ kinds: [...WORK_KINDS, "subagent"], ...(project?.[0] ? { project } : {}) });
  for (const row of rows) {
    const work = row.kind === "subagent" ? spawner(store, row) : row;
    if (work && (want === null || (work.cwd !== null && trimSlash(work.cwd) === want))) return work;
  }
  throw new CairnError(
    "not_found",
    want === null ? "no session in the index" : `no session in ${want} in the index`,
    want === null ? "run 'cairn index' first" : "give a session id, or --latest for the latest anywhere",
  );
}

/** The session of a person's work a subagent belongs to (through nested subagents), or null when not indexed. */
function spawner(store: Pick<ReadonlyStore, "getSession">, subagent: SessionRow): SessionRow | null {
  let at: SessionRow | undefined = subagent;
  for (let hops = 0; at && hops < 16; hops++) {
    if (at.kind !== "subagent") return at;
    at = at.parent_session_id ? store.getSession(at.parent_session_id) : undefined;
  }
  return null;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}
