/**
 * One stored event with its secrets replaced (`secrets/redact.ts`), as both stores' purge rewrite it: text,
 * command, path and meta redacted, and the full-text columns built again from the redacted text, the event that
 * held the secret keeping its `k_secret` facet so the finding stays searchable by kind.
 */
import { redactDeep, redactText } from "../../secrets/redact.ts";
import type { Provider } from "../../topology/types.ts";
import { ftsColumns } from "./fts-text.ts";
import { SECRET_FACET } from "./prepare-batch.ts";

export interface StoredEvent {
  event_type: string;
  provider: string;
  tool_name: string | null;
  status: string | null;
  text: string;
  command: string | null;
  file_path: string | null;
  meta: string;
}

export interface RedactedEvent {
  text: string;
  command: string | null;
  file_path: string | null;
  meta: string;
  fts: { text: string; idents: string; facets: string; stems: string };
}

/** The event's columns redacted, or null when it holds nothing to redact. */
export function redactedEvent(r: StoredEvent, holdsSecret: boolean): RedactedEvent | null {
  const text = redactText(r.text);
  const command = r.command === null ? null : redactText(r.command);
  const file_path = r.file_path === null ? null : redactText(r.file_path);
  const meta = JSON.stringify(redactDeep(JSON.parse(r.meta) as unknown));
  if (text === r.text && command === r.command && file_path === r.file_path && meta === r.meta) return null;
  const fts = ftsColumns({ ...r, text, event_type: r.event_type as never, provider: r.provider as Provider });
  return {
    text,
    command,
    file_path,
    meta,
    fts: { ...fts, facets: holdsSecret ? `${fts.facets} ${SECRET_FACET}` : fts.facets },
  };
}
