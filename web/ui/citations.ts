/**
 * A markdown-it plugin: every `[e:ID]` citation in text (what briefs and answers write) becomes a link to the
 * event's page, `/e/ID`, labelled with the id. Code spans and code blocks are left as written.
 */
import type MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";

const CITATION = /\[e:([A-Za-z0-9_-]{4,80})\]/g;

export function citations(md: MarkdownIt): void {
  // After text_join, so "[e:ID]" is one text token rather than "[", "e:ID", "]".
  md.core.ruler.push("cairn_citations", (state) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      const out: Token[] = [];
      for (const token of block.children) {
        if (token.type !== "text" || !token.content.includes("[e:")) {
          out.push(token);
          continue;
        }
        let last = 0;
        for (const match of token.content.matchAll(CITATION)) {
          const at = match.index;
          if (at > last) out.push(text(state, token.content.slice(last, at)));
          const open = new state.Token("link_open", "a", 1);
          open.attrSet("href", `/e/${match[1]}`);
          open.attrSet("class", "cite");
          open.attrSet("title", `event ${match[1]}`);
          out.push(open, text(state, `e:${match[1]}`), new state.Token("link_close", "a", -1));
          last = at + match[0].length;
        }
        if (last < token.content.length) out.push(text(state, token.content.slice(last)));
      }
      block.children = out;
    }
  });
}

function text(state: { Token: typeof Token }, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}
