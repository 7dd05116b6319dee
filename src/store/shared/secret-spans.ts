/** The `exposes` edges of the secret entities read back as spans, the same for every backend. */
import type { SecretSpans } from "../query-types.ts";

/** A finding's row with its spans taken from the edge's meta (`{kind, spans}`); none when the meta is unreadable. */
export function toSecretSpans(row: Omit<SecretSpans, "spans"> & { meta: string | null }): SecretSpans {
  let spans: SecretSpans["spans"] = [];
  try {
    const meta = JSON.parse(row.meta ?? "{}") as { spans?: unknown };
    if (Array.isArray(meta.spans))
      spans = meta.spans.filter(
        (s): s is [number, number] => Array.isArray(s) && Number.isInteger(s[0]) && Number.isInteger(s[1]),
      );
  } catch {
    // an edge written by something else: the exits scan the text instead
  }
  return { event_id: row.event_id, session_id: row.session_id, secret: row.secret, spans };
}
