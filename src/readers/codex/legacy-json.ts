/**
 * TypeScript-era rollouts (`rollout-….json`): one JSON document, `{session, items}`, rewritten as it grows. Its lines
 * are gathered until the document parses; then its session and its response items are read as the later layouts'.
 */
import { arr, isObj, obj, problem, str } from "../json.ts";
import type { LineSink } from "../line-loop.ts";
import type { SourceLine } from "../types.ts";
import { readResponseItem } from "./response-items.ts";
import { readMeta } from "./session-meta.ts";
import type { CodexState } from "./state.ts";
import { flushPending } from "./twins.ts";

export function readLegacyJsonLine(s: CodexState, line: SourceLine, sink: LineSink): void {
  const { out, problems } = sink;
  const acc = s.legacyJson ?? { text: "", firstLine: line.line };
  acc.text = acc.text === "" ? line.text : `${acc.text}\n${line.text}`;
  s.legacyJson = acc;
  let doc: unknown;
  try {
    doc = JSON.parse(acc.text);
  } catch {
    return; // not complete yet
  }
  s.legacyJson = null;
  const root = obj(doc);
  const session = obj(root?.["session"]);
  const items = arr(root?.["items"]);
  const at: SourceLine = { text: acc.text.slice(0, 200), line: acc.firstLine };
  if (!root || !items) {
    problems.push(problem(at, "a .json rollout without {session, items}"));
    return;
  }
  readMeta(
    s,
    { ...(session ?? {}), id: str(session?.["id"]) ?? "legacy" },
    at,
    str(session?.["timestamp"]) ?? null,
    out,
  );
  // The document has no lines of its own: every item is cited at its first line and keyed by its place.
  const itemLine: SourceLine = { text: "", line: acc.firstLine };
  items.forEach((item, i) => {
    if (!isObj(item)) return;
    if (s.pending) flushPending(s, out);
    readResponseItem(s, item, { line: itemLine, ts: null, key: `I${i}`, envelope: false }, out, { out, problems });
  });
  flushPending(s, out);
}
