/**
 * Search with cairn's whole query language, results as you type. The query is the URL (`/search?q=…`), replaced
 * as you type so the back button is not flooded; `/` focuses the box from anywhere, j/k move through the hits,
 * Enter opens the selected one.
 */

import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { SearchAnswer, SearchHitView } from "../../src/live/history-types.ts";
import { ApiError, getJson } from "../api.ts";
import { Link, navigate, paths } from "../router.tsx";
import { Empty } from "../ui/empty.tsx";
import { shortTime } from "../ui/format.ts";
import { GoneBadge, ProviderBadge } from "./session-meta.tsx";
import { Snippet } from "./snippet.tsx";
import { useListKeys } from "./use-list-keys.ts";

const EXAMPLES = ["error: TS2304", "test:fail since:7d", "file:src/auth.ts", 'cmd:"npm test"', "decision: sqlite"];
const DEBOUNCE_MS = 120;
const HELP: [string, string][] = [
  ['words "a phrase" -not a OR b', "free text, ranked by words and, where embedded, by meaning"],
  ["error: test: decision: resume:", "only errors, checks (test:fail, test:pass), decisions or resume points"],
  ["tool:NAME cmd:COMMAND file:PATH", "calls of a tool, runs of a command, actions on a file"],
  ["provider: project: session: kind:", "one agent, project, session (id prefix) or kind of event"],
  ["since:7d until:2026-01-31", "a time range: days (7d), dates, yesterday"],
];

type State =
  | { kind: "idle" }
  | { kind: "loading"; answer?: SearchAnswer }
  | { kind: "done"; answer: SearchAnswer }
  | { kind: "error"; message: string; answer?: SearchAnswer };

function Hit(props: { hit: SearchHitView; selected: boolean; index: number }): JSX.Element {
  const h = props.hit;
  return (
    <li
      class={`card hit${props.selected ? " selected" : ""}`}
      data-index={props.index}
      aria-current={props.selected || undefined}
    >
      <div class="card-line meta">
        <ProviderBadge provider={h.provider} />
        <span class="kind">
          {h.event_type.replace("_", " ")}
          {h.status ? ` · ${h.status}` : ""}
        </span>
        <span>{shortTime(h.timestamp)}</span>
        {h.project && <span>{h.project}</span>}
        {h.source_gone && <GoneBadge />}
      </div>
      <Link class="hit-link" href={paths.event(h.event_id)}>
        <Snippet text={h.snippet} />
      </Link>
      {h.evidence.length > 0 && (
        <p class="evidence meta">
          from{" "}
          {h.evidence.map((e, i) => (
            <span key={e.event_id}>
              {i > 0 && " ← "}
              <Link href={paths.event(e.event_id)}>{e.event_type.replace("_", " ")}</Link>
              {e.text ? ` “${e.text.slice(0, 60)}”` : ""}
            </span>
          ))}
        </p>
      )}
      <p class="card-line meta">
        <Link href={paths.timeline(h.session_id, h.event_id)}>in session {h.session_short}</Link>
        <Link href={paths.conversation(h.session_id, h.event_id)}>in the conversation</Link>
        <span>matched by {h.why}</span>
      </p>
    </li>
  );
}

export function SearchPage(props: { query: URLSearchParams }): JSX.Element {
  const urlQuery = props.query.get("q") ?? "";
  const [text, setText] = useState(urlQuery);
  const [state, setState] = useState<State>({ kind: "idle" });
  const box = useRef<HTMLInputElement>(null);
  const hits =
    state.kind === "done" || state.kind === "loading" || state.kind === "error" ? (state.answer?.hits ?? []) : [];
  const selected = useListKeys(hits.length, (i) => navigate(paths.event(hits[i]!.event_id)), ".hits");

  useEffect(() => {
    if (!urlQuery) box.current?.focus();
  }, []);
  useEffect(() => {
    const query = text.trim();
    if (query !== urlQuery.trim()) navigate(paths.search(query || undefined), { replace: true });
    if (!query) {
      setState({ kind: "idle" });
      return;
    }
    const abort = new AbortController();
    setState((s) => ({ kind: "loading", ...("answer" in s && s.answer ? { answer: s.answer } : {}) }));
    const timer = setTimeout(() => {
      getJson<SearchAnswer>(historyPath("search", { query, limit: 30 }), abort.signal).then(
        (answer) => setState({ kind: "done", answer }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
          setState((s) => ({ kind: "error", message, ...("answer" in s && s.answer ? { answer: s.answer } : {}) }));
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text]);

  const answer = state.kind === "done" ? state.answer : undefined;
  return (
    <div class="page">
      <header class="page-head">
        <h1>Search</h1>
        <form class="search-form" onSubmit={(e) => e.preventDefault()}>
          <label class="visually-hidden" for="search-box">
            Search your agents' history
          </label>
          <input
            id="search-box"
            ref={box}
            type="search"
            value={text}
            autocomplete="off"
            spellcheck={false}
            placeholder='Search: words, "phrases", error: test:fail file: cmd: decision: since:7d …'
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "ArrowDown" || e.key === "Enter") {
                e.preventDefault();
                (document.querySelector(".hits .hit-link") as HTMLElement | null)?.focus();
              }
            }}
          />
        </form>
        <p class="meta" aria-live="polite" id="search-status">
          {state.kind === "loading" && "Searching…"}
          {answer &&
            `${answer.hits.length === 30 ? "30+" : answer.hits.length} ${answer.hits.length === 1 ? "hit" : "hits"} in ${answer.took_ms} ms (${answer.mode}${answer.meaning_by ? `, meaning by ${answer.meaning_by}` : ""})`}
          {state.kind === "error" && <span class="bad">{state.message}</span>}
        </p>
        {answer?.notice && <p class="meta">{answer.notice}</p>}
      </header>
      {state.kind === "idle" && (
        <Empty title="Search every agent's sessions">
          <p>
            Type words or use the prefixes. <kbd>/</kbd> focuses this box from any view; <kbd>j</kbd>/<kbd>k</kbd> move
            through the hits.
          </p>
          <details class="query-help">
            <summary>The query language</summary>
            <dl>
              {HELP.map(([term, what]) => (
                <div key={term}>
                  <dt>
                    <code>{term}</code>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </details>
          <p class="examples">
            {EXAMPLES.map((example) => (
              <button key={example} type="button" class="chip" onClick={() => setText(example)}>
                {example}
              </button>
            ))}
          </p>
        </Empty>
      )}
      {answer && answer.hits.length === 0 && (
        <Empty title={`Nothing matches “${answer.query}”`}>
          <p>Try fewer words, drop a filter, or search by meaning with plain words.</p>
        </Empty>
      )}
      {hits.length > 0 && (
        <ol class="cards hits" aria-label="Hits" aria-busy={state.kind === "loading"}>
          {hits.map((hit, i) => (
            <Hit key={hit.event_id} hit={hit} index={i} selected={i === selected} />
          ))}
        </ol>
      )}
    </div>
  );
}
