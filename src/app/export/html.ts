/**
 * An export as one HTML file that makes no request of its own: styles inline, no script, no image, no link out,
 * and a Content-Security-Policy that forbids all of them anyway. Every piece of transcript text is escaped and
 * shown as written (never interpreted as HTML or Markdown); tool calls fold in `<details>`.
 */
import { cite } from "../../topology/citation.ts";
import { type Block, type Clipped, clock, exportBlocks, type Mark } from "./blocks.ts";
import type { ExportDocument } from "./document.ts";

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --box: #f6f8fa;
  --user: #0969da; --bad: #cf222e; --good: #1a7f37; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
  --box: #151b23; --user: #4493f8; --bad: #f85149; --good: #3fb950; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem 1rem 4rem; font: 15px/1.5 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1rem; color: var(--muted); border-bottom: 1px solid var(--line); margin: 2rem 0 1rem; }
ul.facts { color: var(--muted); padding-left: 1.2rem; }
.msg { margin: 1rem 0; }
.who { font-weight: 600; } .who.user { color: var(--user); }
.meta, .cite { color: var(--muted); font-size: .85em; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0; font: inherit; }
details { border: 1px solid var(--line); border-radius: 6px; background: var(--box); margin: .5rem 0; }
summary { cursor: pointer; padding: .35rem .6rem; overflow-wrap: anywhere; }
details pre { margin: 0; padding: .6rem; border-top: 1px solid var(--line); white-space: pre-wrap;
  overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, monospace; }
.label { padding: .2rem .6rem 0; color: var(--muted); font-size: .85em; }
.bad { color: var(--bad); } .good { color: var(--good); }
ul.marks { list-style: none; padding-left: 1rem; margin: .25rem 0; }
`;

export function exportHtml(doc: ExportDocument): string {
  const facts = doc.sessions.map(
    (s, i) =>
      `<li>${doc.kind === "thread" ? `s${i + 1} · ` : ""}${esc(`${s.provider} ${s.kind} session ${s.session_id}${s.cwd ? ` in ${s.cwd}` : ""}${s.git_branch ? ` (${s.git_branch})` : ""}, ${s.started_at ?? "?"} → ${s.updated_at ?? "?"}`)}</li>`,
  );
  if (doc.thread)
    facts.push(`<li>${esc(`thread ${doc.thread.thread_id}: ${doc.thread.label} — ${doc.thread.label_reason}`)}</li>`);
  facts.push(
    `<li>${doc.events.length} events; [e:ID] cites an event (cairn show ID). Exported by ${esc(doc.generated_by)}.</li>`,
  );
  const body = exportBlocks(doc).map(block).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(doc.generated_by)}">
<title>${esc(doc.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(doc.title)}</h1>
<ul class="facts">${facts.join("")}</ul>
${body}
</body>
</html>
`;
}

function block(b: Block): string {
  switch (b.kind) {
    case "day":
      return `<h2>${esc(b.date)}</h2>`;
    case "mark":
      return `<ul class="marks">${markItem(b.mark)}</ul>`;
    case "message": {
      const who = b.who === "user" ? "User" : b.who === "assistant" ? "Assistant" : "System";
      const status = b.status && b.status !== "ok" ? ` <span class="bad">(${esc(b.status)})</span>` : "";
      return `<div class="msg"><span class="who ${b.who}">${who}</span>${status} <span class="meta">${esc(head(b.time, b.tag))}</span> <span class="cite">${esc(cite(b.event_id))}</span>
<pre class="text">${esc(b.text.trim())}</pre>${marks(b.marks)}</div>`;
    }
    case "tool": {
      const failed = b.status === "error" ? ' <span class="bad">✗</span>' : "";
      const parts = [
        `<details><summary>${esc(`${b.name}: ${b.summary}`)}${failed} <span class="meta">${esc(head(b.time, b.tag))}</span> <span class="cite">${esc(cite(b.event_id))}</span></summary>`,
      ];
      if (b.input.text.trim() !== "") parts.push(pre(b.input));
      if (b.output) parts.push(`<div class="label">output</div>${pre(b.output)}`);
      parts.push("</details>", marks(b.marks));
      return parts.join("\n");
    }
  }
}

function head(time: string | null, tag: string | null): string {
  return [tag, clock(time)].filter(Boolean).join(" ");
}

function pre(c: Clipped): string {
  const more = c.cut > 0 ? `\n… ${c.cut} more characters; cairn show prints the event whole.` : "";
  return `<pre>${esc(c.text.replace(/\n+$/, ""))}${more}</pre>`;
}

function marks(list: readonly Mark[]): string {
  return list.length === 0 ? "" : `<ul class="marks">${list.map(markItem).join("")}</ul>`;
}

function markItem(m: Mark): string {
  const cls = m.glyph === "✗" ? "bad" : m.glyph === "✓" ? "good" : "";
  return `<li><span class="${cls}">${esc(m.glyph)}</span> ${esc(m.text)} <span class="cite">${esc(cite(m.event_id))}</span></li>`;
}

/** Text as HTML text: the five characters that could start markup or end an attribute, escaped. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
