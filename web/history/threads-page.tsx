/** Work threads: sessions of any agent joined by the rare files, errors and branches they share. */

import type { JSX } from "preact";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { ThreadsAnswer } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { Link, navigate, paths, withQuery } from "../router.tsx";
import { Empty, Failure } from "../ui/empty.tsx";
import { plural, shortTime } from "../ui/format.ts";
import { ProviderBadge } from "./session-meta.tsx";

export function ThreadsPage(props: { query: URLSearchParams }): JSX.Element {
  const project = props.query.get("project") ?? "";
  const single = props.query.get("single") === "1";
  const loaded = useJson<ThreadsAnswer>(
    historyPath("threads", { project: project || undefined, include_single: single }),
  );
  return (
    <div class="page">
      <header class="page-head">
        <h1>Threads</h1>
        <p class="meta">Sessions of any agent that worked on the same rare files, errors or branches.</p>
        <form class="filters" aria-label="Filter threads" onSubmit={(e) => e.preventDefault()}>
          <label>
            Project{" "}
            <input
              type="search"
              value={project}
              onChange={(e) =>
                navigate(
                  withQuery("/threads", { project: e.currentTarget.value.trim(), single: single ? "1" : undefined }),
                  { replace: true },
                )
              }
            />
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={single}
              onChange={(e) =>
                navigate(withQuery("/threads", { project, single: e.currentTarget.checked ? "1" : undefined }), {
                  replace: true,
                })
              }
            />{" "}
            sessions that joined nothing too
          </label>
        </form>
      </header>
      {loaded.state === "error" && <Failure error={loaded.error} what="threads" />}
      {loaded.data && loaded.data.threads.length === 0 && (
        <Empty title="No work threads yet">
          <p>
            A thread appears when two sessions share at least two rare files, error signatures or branches. Index more
            sessions with <code>cairn index</code>, or tick “sessions that joined nothing too”.
          </p>
        </Empty>
      )}
      {loaded.data && loaded.data.threads.length > 0 && (
        <ul class="cards">
          {loaded.data.threads.map((t) => (
            <li key={t.thread_id} class="card">
              <div class="card-line">
                <span class={`tag label-${t.label}`}>{t.label}</span>
                <Link class="card-title" href={paths.thread(t.thread_id)}>
                  {t.sessions[0]?.title ?? t.projects.join(", ") ?? t.thread_id}
                </Link>
              </div>
              <div class="card-line meta">
                {t.providers.map((p) => (
                  <ProviderBadge key={p} provider={p} />
                ))}
                <span>{plural(t.sessions.length, "session")}</span>
                <span>{t.projects.join(", ")}</span>
                <span>
                  {shortTime(t.started_at)} – {shortTime(t.updated_at)}
                </span>
              </div>
              <p class="meta">
                {t.shares} · {t.label_reason}
              </p>
            </li>
          ))}
        </ul>
      )}
      {loaded.data && loaded.data.total > loaded.data.threads.length && (
        <p class="more meta">
          Showing {loaded.data.threads.length} of {loaded.data.total}; filter by project to see the rest.
        </p>
      )}
    </div>
  );
}
