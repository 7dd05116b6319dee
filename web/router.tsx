/**
 * Bookmarkable routes over the History API. Every view has a path of its own, so a URL can be copied into
 * another tab (or shared on the same machine) and opens the same view; the server answers every such path
 * with the page, and the page reads the path.
 */
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { name: "live" }
  | { name: "sessions"; query: URLSearchParams }
  | { name: "search"; query: URLSearchParams }
  | { name: "ask"; query: URLSearchParams }
  | { name: "usage"; query: URLSearchParams }
  | { name: "timeline"; sessionId: string; query: URLSearchParams }
  | { name: "brief"; sessionId: string; query: URLSearchParams }
  | { name: "conversation"; sessionId: string; query: URLSearchParams }
  | { name: "event"; eventId: string }
  | { name: "threads"; query: URLSearchParams }
  | { name: "thread"; threadId: string; query: URLSearchParams }
  | { name: "not_found"; path: string };

export function parseRoute(url: URL): Route {
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const query = url.searchParams;
  const [head, id, tail] = parts;
  if (parts.length === 0 || (head === "live" && parts.length === 1)) return { name: "live" };
  if (parts.length === 1 && head === "sessions") return { name: "sessions", query };
  if (parts.length === 1 && head === "search") return { name: "search", query };
  if (parts.length === 1 && head === "threads") return { name: "threads", query };
  if (parts.length === 1 && head === "ask") return { name: "ask", query };
  if (parts.length === 1 && head === "usage") return { name: "usage", query };
  if (head === "s" && id && parts.length === 2) return { name: "timeline", sessionId: id, query };
  if (head === "s" && id && tail === "brief" && parts.length === 3) return { name: "brief", sessionId: id, query };
  if (head === "s" && id && tail === "conversation" && parts.length === 3)
    return { name: "conversation", sessionId: id, query };
  if (head === "e" && id && parts.length === 2) return { name: "event", eventId: id };
  if (head === "t" && id && parts.length === 2) return { name: "thread", threadId: id, query };
  return { name: "not_found", path: url.pathname };
}

export const paths = {
  live: () => "/",
  sessions: (q?: Record<string, string | undefined>) => withQuery("/sessions", q),
  search: (q?: string) => withQuery("/search", { q }),
  timeline: (sessionId: string, at?: string) => withQuery(`/s/${encodeURIComponent(sessionId)}`, { at }),
  brief: (sessionId: string) => `/s/${encodeURIComponent(sessionId)}/brief`,
  conversation: (sessionId: string, at?: string) =>
    withQuery(`/s/${encodeURIComponent(sessionId)}/conversation`, { at }),
  event: (eventId: string) => `/e/${encodeURIComponent(eventId)}`,
  threads: () => "/threads",
  ask: (session?: string) => withQuery("/ask", { session }),
  thread: (threadId: string) => `/t/${encodeURIComponent(threadId)}`,
  usage: (q?: Record<string, string | undefined>) => withQuery("/usage", q),
};

export function withQuery(path: string, q: Record<string, string | undefined> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {})) if (v !== undefined && v !== "") params.set(k, v);
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

const CHANGE = "cairn:navigate";

/** Goes to `href` inside the page; `replace` keeps the history entry (for typing in a search box). */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (href === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  dispatchEvent(new Event(CHANGE));
  if (!options.replace) scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(new URL(location.href)));
  useEffect(() => {
    const update = (): void => setRoute(parseRoute(new URL(location.href)));
    addEventListener("popstate", update);
    addEventListener(CHANGE, update);
    return () => {
      removeEventListener("popstate", update);
      removeEventListener(CHANGE, update);
    };
  }, []);
  return route;
}

type AnchorProps = JSX.HTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

/** An ordinary link (it works with a middle click, copy link and open in a new tab) that stays in the page. */
export function Link(props: AnchorProps): JSX.Element {
  const { href, onClick, ...rest } = props;
  const click = (event: JSX.TargetedMouseEvent<HTMLAnchorElement>): void => {
    if (typeof onClick === "function") onClick(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
