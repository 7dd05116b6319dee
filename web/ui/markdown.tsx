/**
 * Assistant text as markdown. markdown-it runs with `html: false`, so raw HTML in the text is shown as text,
 * and links are kept only when they are http(s) or mailto (no javascript:, data:, file:); code fences are
 * highlighted by `highlight.ts`. The HTML markdown-it makes is the only HTML the page inserts, and the CSP
 * forbids inline script anyway.
 */
import MarkdownIt from "markdown-it";
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { highlight } from "./highlight.ts";

const SAFE_LINK = /^(?:https?:|mailto:)/i;

const md: MarkdownIt = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  typographer: false,
  highlight: (code, language) => highlight(code, language.toLowerCase()) ?? "",
});
md.validateLink = (url) => SAFE_LINK.test(url.trim());

// Links open in a new tab and tell the target nothing about this page.
const defaultLinkOpen =
  md.renderer.rules["link_open"] ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules["link_open"] = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer nofollow");
  return defaultLinkOpen(tokens, idx, options, env, self);
};
// Tables scroll inside their own box instead of widening the page.
md.renderer.rules["table_open"] = () => '<div class="table-wrap"><table>\n';
md.renderer.rules["table_close"] = () => "</table></div>\n";

export function renderMarkdown(text: string): string {
  return md.render(text);
}

export function Markdown(props: { text: string; class?: string }): JSX.Element {
  const html = useMemo(() => renderMarkdown(props.text), [props.text]);
  // The only HTML the page inserts: markdown-it's, with source HTML escaped (html: false).
  return <div class={`markdown ${props.class ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
