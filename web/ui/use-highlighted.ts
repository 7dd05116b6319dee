/** Highlighted HTML for code, once highlight.js (a chunk of its own) has loaded; null until then or when unknown. */
import { useEffect, useMemo, useState } from "preact/hooks";

type Highlighter = typeof import("./highlight.ts");
let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

function load(): Promise<Highlighter> {
  loading ??= import("./highlight.ts").then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

export function useHighlighted(code: string, language: string | undefined): string | null {
  const [ready, setReady] = useState(loaded !== null);
  useEffect(() => {
    if (!language || loaded) return;
    let live = true;
    void load().then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [language]);
  return useMemo(() => (language && loaded ? loaded.highlight(code, language) : null), [code, language, ready]);
}
