/**
 * The noise check of `npm run eval:resume`: the share of ledger lines that are pasted machine output (log lines,
 * stack frames, raw JSON, diff or command output) where the ledger promises the user's words or the work's state:
 * the quoted goal and requests, constraints, decisions, files and plan items. Failures and checks quote error lines
 * by design and are not counted.
 */
import { isMachineLine } from "../src/topology/pasted.ts";

const COUNTED = /^### (?:Requests|Constraints|Decisions|Files|Plan)\b/;
const QUOTE = /^\*\*(?:Goal|Latest request|Earlier request)\*\*/;

export interface Noise {
  lines: number;
  noisy: string[];
}

export function ledgerNoise(brief: string): Noise {
  const start = brief.indexOf("## Ledger");
  if (start === -1) return { lines: 0, noisy: [] };
  const rest = brief.slice(start + 1);
  const end = rest.search(/^## /m);
  const ledger = end === -1 ? rest : rest.slice(0, end);
  const out: Noise = { lines: 0, noisy: [] };
  let counted = false;
  let files = false;
  for (const raw of ledger.split("\n")) {
    if (raw.startsWith("### ")) {
      counted = COUNTED.test(raw);
      files = raw.startsWith("### Files");
      continue;
    }
    if (QUOTE.test(raw)) {
      counted = true;
      continue;
    }
    if (/^\*\*/.test(raw)) counted = false;
    if (!counted || raw.trim() === "") continue;
    // The line's own words: without the list mark, the turn, the citations and the indent of a quote.
    const body = raw
      .replace(/^\s{4}/, "")
      .replace(
        /^- (?:\(turn \d+\) (?:(?:failed|abandoned|in progress) \([^)]*\): )?|(?:open|settled|superseded): |\[[ ~]\] |[AMDR] )?/,
        "",
      )
      .replace(/\s*\[e:[^\]]*\]\s*$/, "");
    out.lines++;
    // A lone bracket closes the code around it; it says nothing either way.
    if (/^[\s{}[\]();,]*$/.test(body)) continue;
    // A file line is noise when it names no file or no action on it (a folder listed as a file shows as `()`).
    if (files ? /^(?:read only: )?\s*(?:\(|@|$)|\(\)/.test(body) : isMachineLine(body)) out.noisy.push(body);
  }
  return out;
}
