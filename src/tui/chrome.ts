/**
 * The frame around the panes, fitted to the width rather than cut by it: the header (filters before the index's
 * path, the path shortened or left out), the tab bar (shorter labels before any is lost), the footer (the keys that
 * fit, most useful first; a confirmation on lines of its own) and the help (wrapped under its keys).
 */
import { homedir } from "node:os";
import { basename } from "node:path";
import { truncateToWidth, visibleWidth } from "@earendil-works/pi-tui";
import { plural } from "../common/plural.ts";
import { type Browser, TABS } from "./browser.ts";
import { HELP, type Wrap } from "./lines.ts";

const cell = (text: string, width: number): string => truncateToWidth(text, Math.max(0, width), "…", true);

export function filtersText(b: Browser): string {
  const f = b.filters;
  return [f.agent && `agent:${f.agent}`, f.project && `project:${f.project}`, f.since && `since:${f.since}`]
    .filter(Boolean)
    .join(" ");
}

export function header(b: Browser, width: number): string {
  const filters = filtersText(b);
  const shownFilters = filters ? b.style.cyan(` [${filters}]`) : "";
  if (b.focus === "ask") {
    const scope = b.style.dim(
      b.askScope
        ? ` (session ${b.open?.session_id === b.askScope ? b.open.session_short : b.askScope})`
        : " (all history)",
    );
    const room = Math.max(10, width - visibleWidth(scope));
    return `${cell(b.askInput.render(room)[0] ?? "", room)}${scope}`;
  }
  if (b.focus === "search" || b.results || b.searching) {
    const busy = b.searching ? b.style.dim(" searching…") : "";
    const room = Math.max(10, width - visibleWidth(shownFilters) - visibleWidth(busy));
    return `${cell(b.input.render(room)[0] ?? "", room)}${busy}${shownFilters}`;
  }
  const head = `${b.style.bold("cairn")} ${b.style.dim(plural(b.sessions.length, "session"))}${shownFilters}`;
  // This week's spend comes before the index's path, which is the first thing left out when the width is short.
  const spend = b.week ? ` ${b.style.dim(`· this week $${b.week.cost.toFixed(2)}`)}` : "";
  const withSpend = visibleWidth(head) + visibleWidth(spend) <= width ? `${head}${spend}` : head;
  const path = shortPath(b.app.dbPath, width - visibleWidth(withSpend) - 3);
  return path ? `${withSpend} ${b.style.dim(`· ${path}`)}` : withSpend;
}

/** The index's path in `room` columns: with `~` for the home folder, then `~/…/name`, then `…/name`, else nothing. */
export function shortPath(path: string, room: number, home = homedir()): string | null {
  const tilde = home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
  const first = tilde.startsWith("~/") ? "~/" : tilde.startsWith("/") ? "/" : "";
  const forms = [tilde, `${first}…/${basename(path)}`, `…/${basename(path)}`];
  return forms.find((f) => visibleWidth(f) <= room) ?? null;
}

/** The footer's lines: a confirmation (the command, then how to answer, never cut), the last result, or the keys. */
export function footer(b: Browser, width: number, wrap: Wrap): string[] {
  if (b.confirm)
    return [
      ...wrap(`Run: ${b.confirm.prompt}`, width).map((l) => b.style.yellow(l)),
      b.style.yellow(cell("Enter runs it · any other key cancels", width)),
    ];
  if (b.status) return wrap(b.status, width).slice(-2);
  return [b.style.dim(fitted(keysFor(b), width))];
}

function keysFor(b: Browser): string[] {
  if (b.focus === "search") return ["type to search", "↑↓ pick", "Enter to the results", "Esc back"];
  if (b.focus === "ask") return ["type a question", "Enter asks the model", "Esc cancels"];
  if (b.focus === "right" && b.tab === "usage")
    return [
      "? keys",
      "d w m b s p a M by",
      "← → step",
      ...(b.usage?.by === "session" ? ["Enter open session"] : []),
      "1-7 tabs",
      b.zoom ? "z unzoom" : "z zoom",
      "Tab pane",
      "/ search",
      "q back",
    ];
  if (b.focus === "right")
    return [
      "? keys",
      b.zoom ? "z unzoom" : "z zoom",
      "1-7 tabs",
      ...(b.tab === "conversation" ? ["Enter fold/unfold", "c timeline"] : ["Enter open", "c conversation"]),
      "n/N links",
      "Tab pane",
      "/ search",
      "A ask",
      "R AI resume",
      "y copy",
      "e export",
      "r resume",
      "q back",
    ];
  return [
    "? keys",
    "Enter open",
    "c conversation",
    "/ search",
    "a p s filters",
    "Tab pane",
    ...(b.rightOpen ? ["z zoom"] : []),
    "A ask",
    "r resume",
    b.results ? "q back" : "q quit",
  ];
}

/** As many of the items as fit, in their order, joined by ` · `. */
function fitted(items: string[], width: number): string {
  let out = "";
  for (const item of items) {
    const next = out ? `${out} · ${item}` : item;
    if (visibleWidth(next) > width) break;
    out = next;
  }
  return out;
}

/**
 * The tabs: spaced labels, then packed, then the longest names short, then all short, then only the shown tab's
 * name beside the others' numbers, whichever fits first.
 */
export function tabBar(b: Browser, width: number): string {
  const forms: Array<{ name: (t: string) => string; other: (s: string) => string; join: string }> = [
    { name: (t) => t, other: (s) => ` ${s} `, join: " " },
    { name: (t) => t, other: (s) => s, join: " " },
    { name: (t) => (t.length > 8 ? t.slice(0, 4) : t), other: (s) => s, join: " " },
    { name: (t) => t.slice(0, 4), other: (s) => s, join: " " },
    { name: (t) => t, other: (s) => s.split(" ")[0]!, join: " " },
  ];
  for (const [k, form] of forms.entries()) {
    const labels = TABS.map((t, i) => {
      const label = `${i + 1} ${form.name(t[0]!.toUpperCase() + t.slice(1))}`;
      return t === b.tab ? `[${label}]` : form.other(label);
    });
    if (k === forms.length - 1 || visibleWidth(labels.join(form.join)) <= width)
      return TABS.map((t, i) => (t === b.tab ? b.style.bold(labels[i]!) : b.style.dim(labels[i]!))).join(form.join);
  }
  return "";
}

/** The keys, each description wrapped under itself beside its key. */
export function helpLines(b: Browser, width: number, wrap: Wrap): string[] {
  const keyWidth = Math.min(16, Math.max(...HELP.map(([k]) => k.length)));
  const room = Math.max(10, width - keyWidth - 3);
  const out = [b.style.bold("Keys")];
  for (const [key, what] of HELP) {
    wrap(what, room).forEach((w, i) => {
      out.push(` ${(i === 0 ? key : "").padEnd(keyWidth)}  ${w}`);
    });
  }
  return out;
}
