/**
 * The history API (`/api/history/…`) as the catalog serves it: each path asks one question, its `:field` segments
 * and query string being the question's input fields under their own names. The server routes by this table and
 * the page builds its requests with `historyPath`, so neither writes a path or a parameter name of its own. Pure
 * data and string work: the page bundles it.
 */
export const HISTORY_ROUTES = [
  { question: "sessions", path: "sessions" },
  // asked with no input: its query string means nothing
  { question: "overview", path: "overview", bare: true },
  { question: "search", path: "search" },
  { question: "session", path: "sessions/:session" },
  { question: "timeline", path: "sessions/:session/timeline" },
  { question: "conversation", path: "sessions/:session/conversation" },
  { question: "brief", path: "sessions/:session/brief" },
  { question: "eventChain", path: "events/:event_id" },
  { question: "threads", path: "threads" },
  { question: "threadTimeline", path: "threads/:thread" },
  { question: "usage", path: "usage" },
] as const;

export type HistoryQuestion = (typeof HISTORY_ROUTES)[number]["question"];

export const HISTORY_PREFIX = "/api/history/";

type Field = string | number | boolean | readonly string[] | null | undefined;

/** The URL that asks `question` with `input`: path fields in the path, the rest in the query string. */
export function historyPath(question: HistoryQuestion, input: Record<string, Field> = {}): string {
  const route = HISTORY_ROUTES.find((r) => r.question === question)!;
  const used = new Set<string>();
  const path = route.path
    .split("/")
    .map((part) => {
      if (!part.startsWith(":")) return part;
      const name = part.slice(1);
      used.add(name);
      return encodeURIComponent(String(input[name] ?? ""));
    })
    .join("/");
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) {
    if (used.has(k) || v === undefined || v === null || v === "" || v === false) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else params.set(k, v === true ? "1" : String(v));
  }
  const query = params.toString();
  return `${HISTORY_PREFIX}${path}${query ? `?${query}` : ""}`;
}

/** The question a request path asks and its path fields, or null when no route matches. */
export function matchHistoryPath(
  segments: readonly string[],
): { question: HistoryQuestion; fields: Record<string, string> } | null {
  for (const route of HISTORY_ROUTES) {
    const parts = route.path.split("/");
    if (parts.length !== segments.length) continue;
    if (!parts.every((p, i) => p.startsWith(":") || p === segments[i])) continue;
    const fields: Record<string, string> = {};
    parts.forEach((p, i) => {
      if (p.startsWith(":")) fields[p.slice(1)] = segments[i]!;
    });
    return { question: route.question, fields };
  }
  return null;
}
