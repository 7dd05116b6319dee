/**
 * The Brief tab's page for a person, from the brief's view (`BriefJson.view`): the goal as the headline, the
 * latest request and where the work happened under it, the sections with their items, and at the end each
 * numbered citation with what the cited event says, leading to it. Drawn as `markdown-lines.ts` draws markdown.
 */
import type { BriefJson } from "../app/brief.ts";
import { type Line, oneLine, shortTime, type Wrap } from "./lines.ts";
import { markdownLines } from "./markdown-lines.ts";
import type { Style } from "./style.ts";

type View = BriefJson["view"];

/** A quote longer than this is cut in the headline: the Event tab has it whole. */
const QUOTE = 240;

const cites = (ids: readonly string[]) => ids.map((id) => ` [e:${id}]`).join("");
const quote = (text: string) => {
  const one = oneLine(text);
  return one.length > QUOTE ? `${one.slice(0, QUOTE - 1)}…` : one;
};

/** One line per citation at the end (the pane cuts it to its width); the Event tab has the event whole. */
export function viewLines(view: View, width: number, style: Style, wrap: Wrap): Line[] {
  const md: string[] = [];
  if (view.goal) md.push(`# ${quote(view.goal.text)} (turn ${view.goal.turn})${cites(view.goal.cites)}`);
  if (view.latest)
    md.push(`**Latest request** (turn ${view.latest.turn}): ${quote(view.latest.text)}${cites(view.latest.cites)}`);
  const f = view.facts;
  const where = [f.provider, f.cwd, f.branch && `branch ${f.branch}`, f.until && `until ${shortTime(f.until)}`]
    .filter(Boolean)
    .join(" · ");
  md.push(`> ${where} · ${f.events} events`);
  for (const section of view.sections) {
    md.push(`## ${section.title}`);
    for (const item of section.items) md.push(`- ${oneLine(item.text)}${cites(item.cites)}`);
  }
  const { lines, cited } = markdownLines(md.join("\n"), width, style, wrap);
  if (cited.length === 0) return lines;
  const out = [...lines, { text: "" }, { text: style.bold("Cited") }];
  cited.forEach((id, i) => {
    const c = view.cited[id];
    const what = c ? `${c.event_type} @${c.ordinal} ${shortTime(c.timestamp)} ${oneLine(c.text)}` : id;
    out.push({ text: `${`[${i + 1}]`.padEnd(5)} ${style.dim(what)}`, target: id });
  });
  return out;
}
