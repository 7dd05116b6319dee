/**
 * The brief's frame: the header that says what the brief is and how to read its citations, the section headings,
 * the pointer to the full transcript, and the assembly of sections into one Markdown text.
 */
import { cite } from "../topology/citation.ts";
import type { BriefItem, BriefSection, SectionName } from "./brief-types.ts";
import type { Timeline } from "./timeline.ts";

export const BRIEF_TITLE = "# Resume brief";

/** `# Resume brief — session <id>, as of event <id> (@ordinal)`: also how `resume verify` finds a brief. */
export const HEADER_RE = /# Resume brief — session (\S+), as of event ([0-9A-Za-z:_-]+) \(@(\d+)\)/;

export interface HeaderInput {
  timeline: Timeline;
  budget: number;
  step: number | null;
}

export function renderHeader({ timeline: t, budget, step }: HeaderInput): BriefItem {
  const s = t.session;
  const where = [
    s.cwd ? `in \`${s.cwd}\`` : null,
    s.git_branch ? `on branch \`${s.git_branch}\`` : null,
    // A compaction's continuation is briefed with the work before it, and says so.
    t.continues.length > 0
      ? `carrying on session${t.continues.length > 1 ? "s" : ""} ${t.continues.map((c) => c.session_id).join(", ")} (whose events come first, positions running on)`
      : null,
  ]
    .filter(Boolean)
    .join(" ");
  const lines = [
    `${BRIEF_TITLE} — session ${s.session_id}, as of event ${t.cut.event_id} (@${t.cut.ordinal})`,
    `${s.provider} session${where ? ` ${where}` : ""}${t.cut.timestamp ? ` up to ${t.cut.timestamp.slice(0, 16)}` : ""}: ${t.events.length} events (~${t.originalTokens} tokens) in ${budget}${step !== null ? `, for step ${step}` : ""}. [e:<id>] cites source events (\`cairn show <id>\`), @N is a position. The ledger is complete, the rest selected; re-read a file before editing it unless its content is shown.`,
  ];
  return { field: "header", text: lines.join("\n"), cites: [] };
}

export const SECTION_TITLES: Record<Exclude<SectionName, "header" | "ledger">, string> = {
  context: "## Earlier context (selected)",
  names: "## Names in play (most used recently first, by the file they were last seen in)",
  files: "## Latest file contents (rebuilt from the transcript)",
  recent: "## Recent activity (verbatim, newest last)",
  transcript: "## Full transcript",
};

export interface PointerInput {
  file: string;
  first: number;
  last: number;
  /** Why the pointer is there: what the brief leaves to the transcript. */
  reason: string;
  missing: readonly string[];
  cite: string;
}

export function transcriptPointer(p: PointerInput): BriefItem {
  const lines = [
    SECTION_TITLES.transcript,
    `${p.reason} For exact details read \`${p.file}\` lines ${p.first}–${p.last} (one JSON record per line; read it with an offset and a limit, not whole). ${cite(p.cite)}`,
  ];
  if (p.missing.length > 0) lines.push(`Not in this brief: ${p.missing.join("; ")}.`);
  return { field: "transcript", text: lines.join("\n"), cites: [p.cite] };
}

/** The lines of the session's own transcript the brief covers (a predecessor's events are in its own file). */
export function sourceLines(t: Timeline): { first: number; last: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const e of t.events) {
    if (e.session_id !== t.session.session_id) continue;
    first = Math.min(first, e.source_line);
    last = Math.max(last, e.source_line);
  }
  return { first: Number.isFinite(first) ? first : 1, last };
}

/** Sections to text: items joined by newlines, sections by a blank line, each non-empty section under its title. */
export function assemble(sections: readonly BriefSection[]): string {
  const parts: string[] = [];
  for (const s of sections) {
    if (s.items.length === 0) continue;
    const title = s.name === "header" || s.name === "ledger" || s.name === "transcript" ? null : SECTION_TITLES[s.name];
    const body = s.items.map((i) => i.text).join("\n");
    parts.push(title ? `${title}\n${body}` : body);
  }
  return `${parts.join("\n\n")}\n`;
}
