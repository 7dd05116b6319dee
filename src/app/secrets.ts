/**
 * `cairn secrets`: the secrets found in indexed history, one row per finding (an event holding one kind of
 * secret), with where it was and its fingerprint; never the value. And `--purge`: the values taken out of the
 * local index (event text, tool input, titles, the full-text rows), the agents' own files left as they are.
 */
import { CairnError } from "../common/errors.ts";
import { parseTime } from "../search/query.ts";
import { resolveSessionId } from "../store/resolve.ts";
import { SECRET_EDGE } from "../store/shared/prepare-batch.ts";
import type { ReadonlyStore, Store } from "../store/types.ts";

export interface SecretFindingRow {
  /** `secret:<kind>:<fingerprint>`: the same key in two places has the same id. */
  finding: string;
  kind: string;
  fingerprint: string;
  /** How many times the event's text holds it. */
  mentions: number;
  event_id: string;
  event_type: string;
  session_id: string;
  provider: string;
  project: string | null;
  timestamp: string | null;
  source_file: string;
  source_line: number;
  tool_name: string | null;
  file_path: string | null;
}

export interface SecretsRequest {
  since?: string;
  /** A session id or prefix. */
  session?: string;
  limit?: number;
}

export interface SecretsAnswer {
  findings: SecretFindingRow[];
  /** Distinct secrets (fingerprints) among the findings. */
  distinct: number;
  /** More events hold secrets than the limit let through. */
  truncated: boolean;
}

const DEFAULT_LIMIT = 5000;

export function listSecrets(store: ReadonlyStore, req: SecretsRequest, now: Date): SecretsAnswer {
  const limit = req.limit ?? DEFAULT_LIMIT;
  const since = req.since === undefined ? undefined : parseTime(req.since, now, `since ${req.since}`);
  const sessionPrefix = req.session === undefined ? undefined : resolveSessionId(store, req.session).session_id;
  const hits = store.searchEvents({
    match: null,
    secrets: true,
    limit: limit + 1,
    ...(since ? { since } : {}),
    ...(sessionPrefix ? { sessionPrefix } : {}),
  });
  const sessions = new Map<string, string | null>();
  const findings: SecretFindingRow[] = [];
  for (const { event: ev } of hits.slice(0, limit)) {
    if (!sessions.has(ev.session_id)) sessions.set(ev.session_id, store.getSession(ev.session_id)?.project ?? null);
    for (const edge of store.edgesFrom(ev.event_id)) {
      if (edge.edge_type !== (SECRET_EDGE as string) || !edge.dst.startsWith("secret:")) continue;
      const [, kind = "", fingerprint = ""] = edge.dst.split(":");
      const spans = (edge.meta?.["spans"] as unknown[] | undefined) ?? [];
      findings.push({
        finding: edge.dst,
        kind,
        fingerprint,
        mentions: spans.length,
        event_id: ev.event_id,
        event_type: ev.event_type,
        session_id: ev.session_id,
        provider: ev.provider,
        project: sessions.get(ev.session_id) ?? null,
        timestamp: ev.timestamp,
        source_file: ev.source_file,
        source_line: ev.source_line,
        tool_name: ev.tool_name,
        file_path: ev.file_path,
      });
    }
  }
  findings.sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? "") || a.event_id.localeCompare(b.event_id));
  return { findings, distinct: new Set(findings.map((f) => f.finding)).size, truncated: hits.length > limit };
}

export interface PurgeAnswer {
  target: string;
  /** Events whose stored text (or input, or session title) was rewritten redacted. */
  events: number;
}

/**
 * Redacts the stored copies of a finding (`secret:<kind>:<fingerprint>` or its fingerprint alone) or of every
 * secret in a session. The findings stay listed (kind and fingerprint only), so the user can see what was there.
 */
export function purgeSecrets(store: Store, target: string): PurgeAnswer {
  const t = target.trim();
  let eventIds: string[];
  if (/^(secret:)?([a-z0-9-]+:)?[0-9a-f]{12}$/.test(t)) {
    const fp = t.slice(-12);
    eventIds = listSecrets(store, { limit: 1_000_000 }, new Date())
      .findings.filter(
        (f) => f.fingerprint === fp && (!t.includes(":") || f.finding.endsWith(t.replace(/^secret:/, ""))),
      )
      .map((f) => f.event_id);
    if (eventIds.length === 0)
      throw new CairnError("not_found", `no finding '${target}'`, "list them with cairn secrets");
  } else {
    const session = resolveSessionId(store, t).session_id;
    eventIds = listSecrets(store, { session, limit: 1_000_000 }, new Date()).findings.map((f) => f.event_id);
  }
  const events = store.transaction(() => store.redactEvents([...new Set(eventIds)]));
  return { target, events };
}
