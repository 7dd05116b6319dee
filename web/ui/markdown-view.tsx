/**
 * Assistant text as markdown. markdown-it runs with `html: false`, so raw HTML in the text is shown as text,
 * and links are kept only when they are http(s) or mailto (no javascript:, data:, file:); code fences are
 * highlighted by `highlight.ts`. The HTML markdown-it makes is the only HTML the page inserts, and the CSP
 * forbids inline script anyway.
 */
import MarkdownIt from "markdown-it";
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { navigate } from "../router.tsx";
import { citations } from "./citations.ts";
import { highlight } from "./highlight.ts";

const SAFE_LINK = /^(?:https?:|mailto:)/i;

function create(breaks: boolean): MarkdownIt {
  const md = new MarkdownIt({
    html: false,
    linkify: true,
    breaks,
    typographer: false,
    highlight: (code, language) => highlight(code, language.toLowerCase()) ?? "",
  });
  // Only links written with a scheme: "README.md" is a file name, not a Moldovan domain.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  md.use(citations);
  // Links open in a new tab and tell the target nothing about this page; citations stay in the page.
  const defaultLinkOpen =
    md.renderer.rules["link_open"] ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules["link_open"] = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    if (!token.attrGet("href")?.startsWith("/")) {
      token.attrSet("target", "_blank");
      token.attrSet("rel", "noopener noreferrer nofollow");
    }
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  // Tables scroll inside their own box instead of widening the page; the box takes focus so keys can scroll it.
  md.renderer.rules["table_open"] = () =>
    '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>\n';
  md.renderer.rules["table_close"] = () => "</table></div>\n";
  return md;
}

/** Agents' replies: ordinary markdown. Briefs and ledgers: one item per line, so line breaks are kept. */
const prose = create(false);
const lines = create(true);

export function renderMarkdown(text: string, keepBreaks = false): string {
  return (keepBreaks ? lines : prose).render(text);
}

/** A click on a link inside the page (a citation) stays in the page. */
function followInternal(event: JSX.TargetedMouseEvent<HTMLDivElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element).closest("a");
  const href = link?.getAttribute("href");
  if (!href?.startsWith("/")) return;
  event.preventDefault();
  navigate(href);
}

export default function MarkdownView(props: { text: string; class?: string; breaks?: boolean }): JSX.Element {
  const html = useMemo(() => renderMarkdown(props.text, props.breaks), [props.text, props.breaks]);
  // The only HTML the page inserts: markdown-it's, with source HTML escaped (html: false).
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegation for the links inside, which take keys themselves.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Enter on a link fires this click too.
    <div class={`markdown ${props.class ?? ""}`} onClick={followInternal} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
