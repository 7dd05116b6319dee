/**
 * The notebook as it stands at the cut, and the brief a session began from. Both are text the harness put in the
 * session, not words of the person's: notebook pages (an extension's named pages, `meta.notebook`) are rebuilt from
 * their entries (a write replaces a page, a delete drops it, a clear empties the notebook), and a brief handed over
 * from another session (a `handoff` resume point naming that session, `meta.from_session`) is referred to, not
 * restated: its facts are cited in the brief of the session it came from.
 */
import { clip, headline } from "../topology/text.ts";
import type { SessionEvent } from "../topology/types.ts";
import type { LedgerHandoff, LedgerPage } from "./ledger-types.ts";

const FIRST_LINE_CHARS = 160;

export function isNotebookPage(e: SessionEvent): boolean {
  return e.event_type === "user_message" && e.meta["notebook"] === true;
}

/** A brief another session handed over: its facts are cited where they happened, in that session. */
export function isCarriedBrief(e: SessionEvent): boolean {
  return e.event_type === "resume_point" && e.meta["kind"] === "handoff" && typeof e.meta["from_session"] === "string";
}

/** The pages visible at the end of `events`, by name, each cited to the entry that last wrote it. */
export function notebookOf(events: readonly SessionEvent[]): LedgerPage[] {
  const pages = new Map<string, LedgerPage>();
  for (const e of events) {
    if (!isNotebookPage(e)) continue;
    const op = typeof e.meta["notebook_op"] === "string" ? e.meta["notebook_op"] : "write";
    if (op === "clear") {
      pages.clear();
      continue;
    }
    // An index written before pages carried their name has the name as the text's first line.
    const [first = "", ...rest] = e.text.split("\n");
    const name = typeof e.meta["page"] === "string" ? e.meta["page"] : first.trim();
    if (name === "") continue;
    if (op === "delete") {
      pages.delete(name);
      continue;
    }
    const body = first.trim() === name ? rest.join("\n") : e.text;
    pages.set(name, {
      name,
      firstLine: clip(headline(body), FIRST_LINE_CHARS),
      ordinal: e.ordinal,
      cites: [e.event_id],
    });
  }
  return [...pages.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The latest brief handed over from another session, if the session began from one. */
export function handoffOf(events: readonly SessionEvent[]): LedgerHandoff | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (!isCarriedBrief(e)) continue;
    return {
      from: e.meta["from_session"] as string,
      ordinal: e.ordinal,
      cites: [e.event_id],
    };
  }
  return null;
}
