/**
 * An export as Markdown: messages as written, each tool call and its result collapsed in `<details>` (GitHub,
 * GitLab and most viewers fold them), derived errors, checks and decisions as marks under what they came from,
 * every block citing its event.
 */
import { cite } from "../../topology/citation.ts";
import { type Block, type Clipped, clock, exportBlocks, type Mark } from "./blocks.ts";
import type { ExportDocument } from "./document.ts";

export function exportMarkdown(doc: ExportDocument): string {
  const out: string[] = [`# ${oneLineTitle(doc.title)}`, ""];
  for (const s of doc.sessions)
    out.push(
      `- ${doc.kind === "thread" ? `s${doc.sessions.indexOf(s) + 1} · ` : ""}${s.provider} ${s.kind} session \`${s.session_id}\`${s.cwd ? ` in \`${s.cwd}\`` : ""}${s.git_branch ? ` (${s.git_branch})` : ""}, ${s.started_at ?? "?"} → ${s.updated_at ?? "?"}`,
    );
  if (doc.thread) out.push(`- thread \`${doc.thread.thread_id}\`: ${doc.thread.label} — ${doc.thread.label_reason}`);
  out.push(
    `- ${doc.events.length} events; [e:ID] cites an event (\`cairn show ID\`). Exported by ${doc.generated_by}.`,
    "",
  );
  for (const b of exportBlocks(doc)) out.push(...block(b), "");
  return `${out.join("\n").trimEnd()}\n`;
}

function block(b: Block): string[] {
  switch (b.kind) {
    case "day":
      return [`## ${b.date}`];
    case "mark":
      return [`${head(b.time, b.tag)} ${markLine(b.mark)}`];
    case "message": {
      const who = b.who === "user" ? "User" : b.who === "assistant" ? "Assistant" : "System";
      const status = b.status && b.status !== "ok" ? ` (${b.status})` : "";
      return [
        `**${who}**${status} · ${head(b.time, b.tag)} ${cite(b.event_id)}`,
        "",
        b.text.trim() === "" ? "_(no text)_" : b.text.trim(),
        ...marks(b.marks),
      ];
    }
    case "tool": {
      const failed = b.status === "error" ? " ✗" : "";
      const lines = [
        "<details>",
        `<summary>${escapeHtml(`${b.name}: ${b.summary}`)}${failed} · ${escapeHtml(head(b.time, b.tag))} ${cite(b.event_id)}</summary>`,
        "",
      ];
      if (b.input.text.trim() !== "") lines.push(...fenced(b.input), "");
      if (b.output) lines.push("Output:", "", ...fenced(b.output), "");
      lines.push("</details>", ...marks(b.marks));
      return lines;
    }
  }
}

function head(time: string | null, tag: string | null): string {
  return [tag, clock(time)].filter(Boolean).join(" ");
}

function marks(list: readonly Mark[]): string[] {
  return list.length === 0 ? [] : ["", ...list.map((m) => `- ${markLine(m)}`)];
}

function markLine(m: Mark): string {
  return `${m.glyph} ${escapeInline(m.text)} ${cite(m.event_id)}`;
}

/** A code block whose fence is longer than any run of backticks inside it, so no content can close it early. */
function fenced(c: Clipped): string[] {
  const longest = Math.max(2, ...[...c.text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const body = [fence, c.text.replace(/\n+$/, ""), fence];
  if (c.cut > 0) body.push(`_… ${c.cut} more characters; \`cairn show\` prints the event whole._`);
  return body;
}

function oneLineTitle(s: string): string {
  return escapeInline(s.replace(/\s+/g, " ").trim());
}

/** Inline text that is not Markdown's to interpret: HTML is shown as text. */
function escapeInline(s: string): string {
  return s.replace(/[<>&]/g, (ch) => (ch === "<" ? "&lt;" : ch === ">" ? "&gt;" : "&amp;"));
}

function escapeHtml(s: string): string {
  return escapeInline(s).replace(/"/g, "&quot;");
}
