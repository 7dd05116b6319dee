/**
 * The brief for a person, from the same sections as the brief for a model: the goal and the latest request as the
 * headline, then the sections that have something in them, each item's text without its citation marks (the
 * citations travel beside it), and nothing addressed to a model (the header's reading instructions, the pointer
 * telling an agent how to page through the transcript).
 */
import { withoutCitations } from "../topology/citation.ts";
import { clip } from "../topology/text.ts";
import type { SessionEvent } from "../topology/types.ts";
import type {
  BriefSection,
  BriefView,
  CitePreview,
  SectionName,
  ViewItem,
  ViewQuote,
  ViewSection,
} from "./brief-types.ts";
import type { Ledger, LedgerMessage } from "./ledger-types.ts";
import type { Timeline } from "./timeline.ts";

const TITLES: Partial<Record<SectionName, string>> = {
  context: "Earlier context",
  names: "Names in play",
  files: "Latest file contents",
  recent: "Recent activity",
};

export function peopleView(sections: readonly BriefSection[], ledger: Ledger, t: Timeline): BriefView {
  const latest = ledger.latest.at(-1) ?? null;
  const out: ViewSection[] = [];
  for (const s of sections) {
    if (s.name === "header" || s.name === "transcript") continue;
    if (s.name === "ledger") out.push(...ledgerSections(s, ledger));
    else out.push({ title: TITLES[s.name] ?? s.name, items: s.items.map((i) => viewItem(i.field, i.text, i.cites)) });
  }
  const view: BriefView = {
    goal: ledger.goal ? quote(ledger.goal) : null,
    latest: latest && latest.cites[0] !== ledger.goal?.cites[0] ? quote(latest) : null,
    facts: {
      provider: t.session.provider,
      cwd: t.session.cwd,
      branch: t.session.git_branch,
      until: t.cut.timestamp,
      events: t.events.length,
    },
    sections: out.filter((s) => s.items.length > 0),
    cited: {},
  };
  const cites = [view.goal?.cites, view.latest?.cites, ...view.sections.flatMap((s) => s.items.map((i) => i.cites))];
  for (const id of cites.flat()) {
    const e = id === undefined ? undefined : t.byId.get(id);
    if (e && !(e.event_id in view.cited)) view.cited[e.event_id] = preview(e);
  }
  return view;
}

const PREVIEW_CHARS = 280;

function preview(e: SessionEvent): CitePreview {
  const text = e.text.split("\n").slice(0, 4).join("\n");
  return {
    event_type: e.event_type,
    role: e.role,
    ordinal: e.ordinal,
    timestamp: e.timestamp,
    text: clip(text, PREVIEW_CHARS),
  };
}

function quote(m: LedgerMessage): ViewQuote {
  return { text: m.text, turn: m.turn, cites: m.cites };
}

/**
 * The ledger's headings (`### Constraints (the user's words)`) start its sections; the goal and the latest request
 * are the headline, and the earlier requests before the latest one a section of their own.
 */
function ledgerSections(s: BriefSection, ledger: Ledger): ViewSection[] {
  const out: ViewSection[] = [];
  const earlier: ViewSection = { title: "Earlier requests", items: [] };
  const now: ViewSection = { title: "Where it stands", items: [] };
  out.push(earlier, now);
  let current = now;
  const headline = new Set([ledger.goal?.cites[0], ledger.latest.at(-1)?.cites[0]]);
  for (const item of s.items) {
    if (item.field === "heading") {
      if (!item.text.startsWith("### ")) continue;
      current = { title: item.text.slice(4), items: [] };
      out.push(current);
      continue;
    }
    if (item.field === "goal") continue;
    if (item.field === "latest_request") {
      const m = ledger.latest.find((l) => l.cites[0] === item.cites[0]);
      if (m && !headline.has(m.cites[0])) earlier.items.push({ field: item.field, text: m.text, cites: m.cites });
      continue;
    }
    // A quoted block's indent says "verbatim" to a model; in a ledger line, to Markdown, it would be code.
    const it = viewItem(item.field, item.text, item.cites);
    current.items.push({ ...it, text: it.text.replace(/^ {4}/gm, "") });
  }
  return out;
}

function viewItem(field: string, text: string, cites: string[]): ViewItem {
  const clean = withoutCitations(text)
    .replace(/^- /, "")
    .replace(/[ \t]+$/gm, "")
    .trimEnd();
  return { field, text: clean, cites };
}
