/**
 * The page: a header with the views and the live connection's state, the current view, and a toast for
 * refusals. `/` focuses the search box from anywhere; each view handles its own keys.
 */
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { HistoryView } from "./history/history-view.tsx";
import { LivePage } from "./live/live-page.tsx";
import { useLive } from "./live/live-store.ts";
import { Link, navigate, paths, type Route, useRoute } from "./router.tsx";
import { applyTheme, storedTheme, type Theme } from "./theme.ts";

const STATE_LABEL = { connecting: "connecting", live: "live", reconnecting: "reconnecting", offline: "offline" };

function ConnectionPill(): JSX.Element {
  const live = useLive();
  const waiting = live.view?.openPrompts.length ?? 0;
  return (
    <span class="pill-group">
      <span id="connection" class="pill" data-state={live.state} role="status" title={live.detail}>
        {STATE_LABEL[live.state]}
      </span>
      {waiting > 0 && (
        <Link href={paths.live()} class="pill waiting" id="waiting">
          {waiting} waiting
        </Link>
      )}
    </span>
  );
}

function ThemeSwitch(): JSX.Element {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <label class="theme-switch">
      <span class="visually-hidden">Theme</span>
      <select id="theme" value={theme} onChange={(e) => setTheme(e.currentTarget.value as Theme)}>
        <option value="system">Auto</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

const NAV: { name: Route["name"]; label: string; href: string; also: Route["name"][] }[] = [
  { name: "live", label: "Live", href: paths.live(), also: [] },
  { name: "sessions", label: "Sessions", href: paths.sessions(), also: ["timeline", "conversation", "brief", "event"] },
  { name: "search", label: "Search", href: paths.search(), also: [] },
  { name: "threads", label: "Threads", href: paths.threads(), also: ["thread"] },
  { name: "ask", label: "Ask", href: paths.ask(), also: [] },
  { name: "usage", label: "Usage", href: paths.usage(), also: [] },
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

export function App(): JSX.Element {
  const route = useRoute();
  const [toast, setToast] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const notify = (text: string): void => {
    setToast(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setToast(""), 8_000);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const box = document.getElementById("search-box") as HTMLInputElement | null;
      event.preventDefault();
      if (box) box.focus();
      else navigate(paths.search());
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    document.title = route.name === "live" ? "cairn · live" : `cairn · ${route.name.replace("_", " ")}`;
  }, [route]);

  return (
    <div class="shell" data-view={route.name}>
      <a class="skip-link" href="#view">
        Skip to content
      </a>
      <header class="top">
        <Link href={paths.live()} class="brand" aria-label="cairn, live session">
          <img src="/favicon.svg" alt="" width={20} height={20} />
          <span>cairn</span>
        </Link>
        <nav aria-label="Views">
          {NAV.map((item) => {
            const current = route.name === item.name || item.also.includes(route.name);
            return (
              <Link key={item.name} href={item.href} aria-current={current ? "page" : undefined} data-nav={item.name}>
                {item.label}
              </Link>
            );
          })}
        </nav>
        <span class="spacer" />
        <ConnectionPill />
        <ThemeSwitch />
      </header>
      <main id="view" class="view">
        {route.name === "live" ? <LivePage notify={notify} /> : <HistoryView route={route} />}
      </main>
      <div id="toast" role="alert" class={toast ? "toast shown" : "toast"}>
        {toast}
      </div>
    </div>
  );
}
