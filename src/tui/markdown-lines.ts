/**
 * The brief's markdown drawn for a person in a terminal: headings, bold, lists, code and quoted requests as
 * styling, never as `#`, `**` or backticks, and each citation `[e:ID]` as a short numbered mark `[n]` that its line
 * leads to (Enter follows it). The markdown is the brief's own small dialect, not the whole language.
 */
import { type Line, stripAnsi, type Wrap } from "./lines.ts";
import type { Style } from "./style.ts";

const CITATION = /\[e:([0-9a-zA-Z_:.-]+)\]/g;
/** `[e:<id>]`, the model's reading instructions name the form: nothing a person follows. */
const PLACEHOLDER = /\s*\[e:<id>\][^.]*\./g;

interface Block {
  /** The first line's lead (a bullet, an indent) and the following lines'. */
  lead: string;
  hang: string;
  text: string;
  paint: (s: string) => string;
  blankBefore?: boolean;
}

export interface MarkdownView {
  lines: Line[];
  /** The cited events in the order of their marks: `cited[n - 1]` is mark `[n]`. */
  cited: string[];
}

export function markdownLines(markdown: string, width: number, style: Style, wrap: Wrap): MarkdownView {
  const cited: string[] = [];
  const mark = (id: string): number => {
    const at = cited.indexOf(id);
    if (at >= 0) return at + 1;
    cited.push(id);
    return cited.length;
  };
  const out: Line[] = [];
  let fenced = false;
  for (const raw of markdown.replace(PLACEHOLDER, "").split("\n")) {
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      for (const w of wrap(raw, Math.max(8, width - 2))) out.push({ text: `  ${style.cyan(w)}` });
      continue;
    }
    const block = blockOf(raw, style);
    if (block.blankBefore && out.length > 0 && out.at(-1)!.text !== "") out.push({ text: "" });
    const { plain, styled, cites } = inline(block.text, style, mark);
    out.push(...wrapped(block, plain, block.paint(styled), cites, width, wrap));
  }
  while (out.at(-1)?.text === "") out.pop();
  return { lines: out, cited };
}

function blockOf(raw: string, style: Style): Block {
  const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
  if (heading) {
    const level = heading[1]!.length;
    const paint = level === 1 ? (s: string) => style.bold(style.cyan(s)) : style.bold;
    return { lead: "", hang: "", text: heading[2]!, paint, blankBefore: true };
  }
  const item = /^(\s*)[-*+]\s+(.*)$/.exec(raw);
  if (item) {
    const indent = " ".repeat(Math.min(item[1]!.length, 8));
    return { lead: `${indent}• `, hang: `${indent}  `, text: item[2]!, paint: (s) => s };
  }
  const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(raw);
  if (numbered) {
    const lead = `${numbered[1]}${numbered[2]}. `;
    return { lead, hang: " ".repeat(lead.length), text: numbered[3]!, paint: (s) => s };
  }
  const quoted = /^(?: {4}|\t|>\s?)(.*)$/.exec(raw);
  if (quoted) return { lead: "  │ ", hang: "  │ ", text: quoted[1]!.trim(), paint: style.dim };
  return { lead: "", hang: "", text: raw, paint: (s) => s };
}

interface Cite {
  id: string;
  start: number;
  end: number;
}

/** Bold, code and citations of one line: its plain text (for finding where wrapped pieces fall) and its styled. */
function inline(
  text: string,
  style: Style,
  mark: (id: string) => number,
): { plain: string; styled: string; cites: Cite[] } {
  let plain = "";
  let styled = "";
  const cites: Cite[] = [];
  const token = /\*\*(.+?)\*\*|`([^`]+)`|\[e:([0-9a-zA-Z_:.-]+)\]/g;
  let at = 0;
  for (const m of text.matchAll(token)) {
    plain += text.slice(at, m.index);
    styled += text.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[1] !== undefined) {
      const inner = m[1].replace(CITATION, (_, id: string) => `[${mark(id)}]`);
      plain += inner;
      styled += style.bold(inner);
    } else if (m[2] !== undefined) {
      plain += m[2];
      styled += style.cyan(m[2]);
    } else {
      const shown = `[${mark(m[3]!)}]`;
      cites.push({ id: m[3]!, start: plain.length, end: plain.length + shown.length });
      plain += shown;
      styled += style.dim(shown);
    }
  }
  plain += text.slice(at);
  styled += text.slice(at);
  return { plain, styled, cites };
}

/**
 * The block wrapped under its lead; each piece leads to a citation it holds, else to the next one after it in the
 * same line (the one that backs what the piece says).
 */
function wrapped(
  block: Pick<Block, "lead" | "hang">,
  plain: string,
  styled: string,
  cites: Cite[],
  width: number,
  wrap: Wrap,
): Line[] {
  const room = Math.max(8, width - block.lead.length);
  const out: Line[] = [];
  let at = 0;
  wrap(styled, room).forEach((piece, k) => {
    const text = stripAnsi(piece).trim();
    const found = text === "" ? -1 : plain.indexOf(text, at);
    const start = found < 0 ? at : found;
    const end = found < 0 ? at : found + text.length;
    if (found >= 0) at = end;
    const cite = cites.find((c) => c.start < end && c.end > start) ?? cites.find((c) => c.start >= end);
    const line = `${k === 0 ? block.lead : block.hang}${piece}`;
    out.push(cite ? { text: line, target: cite.id } : { text: line });
  });
  return out;
}
