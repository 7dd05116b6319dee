/**
 * `cairn push --to postgres://…`: sends what a local index has that the team index lacks. A session is sent whole
 * in one transaction when the team index does not hold it with the same event count and last update, so a push
 * is idempotent (the second sends nothing) and resumable (a push stopped midway has committed whole sessions, and
 * the next one sends the rest). A session's evidence bundles and their vector codes go with it, so the team index
 * answers hybrid and vector searches without embedding again (a bundle whose text `--redact` changed is sent
 * without its vector, and waits to be embedded from the redacted text). `--redact` replaces secrets with their
 * markers and the home folder with `~` in everything sent.
 */
import { homedir } from "node:os";
import { CairnError } from "../common/errors.ts";
import { EMBEDDER_SETTING } from "../embedders/config.ts";
import { redactDeep, redactText } from "../secrets/redact.ts";
import type { CarriedBundles } from "../store/bundle-types.ts";
import { openPgStore, type PgStore } from "../store/pg/store.ts";
import { isPgUrl } from "../store/pg/url.ts";
import { prepareBatch } from "../store/shared/prepare-batch.ts";
import type { ReadonlyStore, SessionRow } from "../store/types.ts";
import type { Edge, Entity, SessionEvent } from "../topology/types.ts";
import { identityFrom } from "./machine.ts";
import { type Env, readOpener } from "./open.ts";

export interface PushRequest {
  /** The local index (a SQLite path). */
  from: string;
  /** The team index's connection string. */
  to: string;
  env: Env;
  redact?: boolean;
  signal?: AbortSignal;
  onSession?: (s: { session_id: string; events: number; done: number; total: number }) => void;
  /** Whether a large push drops the search indexes and builds them once after (default: when it pays, below). */
  bulk?: boolean;
}

export interface PushAnswer {
  from: string;
  to: string;
  sessions: number;
  sent: number;
  unchanged: number;
  events: number;
  /** Evidence bundles sent, and how many of them carried their vector. */
  bundles: number;
  vectors: number;
  redacted: boolean;
  interrupted: boolean;
  /** Whether the push was large enough to build the team index's search indexes once, after its sessions. */
  rebuiltIndexes: boolean;
}

/**
 * A push of at least this many events, and at least a tenth of what the team index holds, drops the full-text
 * (RUM or GIN) and trigram indexes and builds them after: keeping RUM up to date costs about 0.9 ms per event
 * written (627 against 1,493 events/s on the same transcripts), building it afresh about 74 µs per event held
 * (81 s at 1.1 M events), so rebuilding wins once a push adds more than a tenth of the index.
 */
const BULK_EVENTS = 20_000;

export function runPush(req: PushRequest): PushAnswer {
  if (!isPgUrl(req.to)) throw new CairnError("usage", `--to must be a postgres:// connection string, not '${req.to}'`);
  if (isPgUrl(req.from)) throw new CairnError("usage", "push sends a local SQLite index: --db must be a file");
  const local = readOpener(req.from, req.env);
  const from = local.get();
  let team: PgStore | null = null;
  try {
    team = openPgStore(req.to, identityFrom(req.env));
    return pushIndex(from, team, req);
  } finally {
    local.close();
    team?.close();
  }
}

function pushIndex(local: ReadonlyStore, team: PgStore, req: PushRequest): PushAnswer {
  const scrub = req.redact ? scrubber(req.env["HOME"] || homedir()) : (s: string) => s;
  const have = new Map(team.listSessions({}).map((s) => [s.session_id, s]));
  const sessions = local.listSessions({});
  const out: PushAnswer = {
    from: req.from,
    to: team.path,
    sessions: sessions.length,
    sent: 0,
    unchanged: 0,
    events: 0,
    bundles: 0,
    vectors: 0,
    redacted: req.redact === true,
    interrupted: false,
    rebuiltIndexes: false,
  };
  // The team embeds queries as the vectors it is sent were made, unless it already chose an embedder. A local index
  // that chose none used the best model installed here: the team is told which, so that every member searching it
  // embeds queries with that model (or is told to install it) rather than with whatever their machine has.
  const embedder = local.getSetting(EMBEDDER_SETTING) ?? madeBy(local.vectorInfo().embedder);
  if (embedder !== null && team.getSetting(EMBEDDER_SETTING) === null) team.putSetting(EMBEDDER_SETTING, embedder);
  const held = (s: SessionRow) => {
    const there = have.get(s.session_id);
    return there !== undefined && there.event_count === s.event_count && there.updated_at === s.updated_at;
  };
  let toSend = 0;
  for (const s of sessions) if (!held(s)) toSend += s.event_count;
  let teamEvents = 0;
  for (const s of have.values()) teamEvents += s.event_count;
  const bulk = req.bulk ?? (toSend >= BULK_EVENTS && toSend * 10 >= teamEvents);
  const send = () => sendSessions(local, team, req, sessions, held, scrub, out);
  if (bulk) {
    out.rebuiltIndexes = true;
    team.bulkLoad(send);
  } else send();
  return out;
}

function sendSessions(
  local: ReadonlyStore,
  team: PgStore,
  req: PushRequest,
  sessions: SessionRow[],
  held: (s: SessionRow) => boolean,
  scrub: (s: string) => string,
  out: PushAnswer,
): void {
  // Oldest first, so a push stopped midway has sent a prefix of history.
  for (const s of [...sessions].reverse()) {
    if (req.signal?.aborted) {
      out.interrupted = true;
      break;
    }
    if (held(s)) {
      out.unchanged++;
      continue;
    }
    const batch = sessionBatch(local, s, scrub);
    const carried = scrubBundles(local.sessionBundles(s.session_id), scrub);
    const { added, bundles, vectors } = team.transaction(() => {
      const n = team.writePrepared(prepareBatch(batch, [], { storedForms: false }));
      team.refreshSessions([s.session_id]);
      return { added: n, ...team.putSessionBundles(s.session_id, carried) };
    });
    out.sent++;
    out.events += added;
    out.bundles += bundles;
    out.vectors += vectors;
    req.onSession?.({
      session_id: s.session_id,
      events: added,
      done: out.sent + out.unchanged,
      total: sessions.length,
    });
  }
}

/** One session as the indexer would have written it: its events, stored edges and the entities they point at. */
function sessionBatch(local: ReadonlyStore, s: SessionRow, scrub: (s: string) => string) {
  const events = local.sessionEvents(s.session_id);
  const edges: Edge[] = [];
  for (const id of [`session:${s.session_id}`, ...events.map((e) => e.event_id)])
    for (const e of local.edgesFrom(id)) if (e.edge_type !== "next") edges.push(e);
  const eventIds = new Set(events.map((e) => e.event_id));
  const entities: Entity[] = [];
  for (const dst of new Set(edges.map((e) => e.dst))) {
    if (eventIds.has(dst)) continue;
    const entity = local.getEntity(dst);
    if (entity) entities.push(entity);
  }
  const {
    source_gone: _g,
    event_count: _e,
    prompt_count: _p,
    tool_count: _t,
    error_count: _r,
    test_count: _c,
    resume_count: _u,
    ...info
  } = s;
  return {
    sessions: [deepScrub(info, scrub)],
    events: events.map((e) => deepScrub(e, scrub) as SessionEvent),
    edges: edges.map((e) => deepScrub(e, scrub)),
    usage: local.usageRows(s.session_id),
    entities: entities.map((e) => deepScrub(e, scrub)),
  };
}

/** Bundles as sent: their text scrubbed like the events, and a vector kept only for a text left as it was. */
function scrubBundles(c: CarriedBundles, scrub: (s: string) => string): CarriedBundles {
  return {
    ...c,
    bundles: c.bundles.map((b) => {
      const text = deepScrub(b.text, scrub);
      return text === b.text ? b : { ...b, text, embedded: false, code: null };
    }),
  };
}

/** Secrets as their markers, then the home folder as `~`. */
function scrubber(home: string): (s: string) => string {
  const prefix = home.replace(/\/+$/, "");
  return (s: string) => {
    const red = redactText(s);
    return prefix.length > 1 ? red.split(prefix).join("~") : red;
  };
}

function deepScrub<T>(value: T, scrub: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(redactDeep(value)) as T;
}

/** The setting that names the embedder stored vectors came from, when the index chose none (a model, or static). */
function madeBy(vectors: string | null): string | null {
  const model = vectors?.match(/^model:([a-z0-9._-]+)@/)?.[1];
  if (model) return JSON.stringify({ kind: "model", model });
  return vectors?.startsWith("static:") ? JSON.stringify({ kind: "static" }) : null;
}
