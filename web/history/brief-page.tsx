/**
 * The resume brief for a session (`/s/ID/brief`): the markdown the engine wrote, every `[e:ID]` a link to the
 * event it cites, with the budget, the size and whether it validated; `?at=EVENT` builds it as of an event.
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { historyPath } from "../../src/app/catalog/routes.ts";
import type { AiResumeView, BriefAnswer, BriefView } from "../../src/live/history-types.ts";
import { postJson, useJson } from "../api.ts";
import { Link, paths } from "../router.tsx";
import { Failure } from "../ui/empty.tsx";
import { Markdown } from "../ui/markdown.tsx";
import { BriefViewBlock } from "./brief-view.tsx";

export function BriefPage(props: { sessionId: string; query: URLSearchParams }): JSX.Element {
  const at = props.query.get("at") ?? undefined;
  const budget = props.query.get("budget") ?? undefined;
  const loaded = useJson<BriefAnswer>(
    historyPath("brief", {
      session: props.sessionId,
      at,
      budget_tokens: budget === undefined ? undefined : Number(budget),
    }),
  );
  return (
    <div class="page brief-page">
      <header class="page-head">
        <h1>Resume brief</h1>
        <p class="meta">
          {loaded.data && <Facts view={loaded.data.view} />}
          <Link href={paths.timeline(props.sessionId)}>session {loaded.data?.session_short ?? props.sessionId}</Link>
          {at && <span> as of event {at}</span>}
        </p>
      </header>
      {loaded.state === "error" && <Failure error={loaded.error} what="the brief" />}
      {loaded.state === "loading" && (
        <p class="muted" aria-busy="true">
          Building the brief…
        </p>
      )}
      {loaded.data && (
        <>
          <p class="meta brief-facts">
            {loaded.data.tokens.toLocaleString("en")} tokens of a {loaded.data.budget_tokens.toLocaleString("en")}
            -token budget, from {loaded.data.original_tokens.toLocaleString("en")} (
            {Math.round(loaded.data.ratio * 100)}
            %) · {loaded.data.citations.length} events cited · must-keep facts kept{" "}
            {Math.round(loaded.data.validation.coverage * 100)}%{loaded.data.validation.ok ? "" : " (did not validate)"}
            {loaded.data.budget_note && <span> · {loaded.data.budget_note}</span>}
          </p>
          <p class="page-actions">
            <Link href={paths.conversation(props.sessionId, at)}>Read the conversation</Link>
            <Link href={paths.ask(props.sessionId)}>Ask about this session</Link>
          </p>
          <AiBrief sessionId={props.sessionId} budget={budget} />
          <BriefViewBlock view={loaded.data.view} />
          <details class="brief-model">
            <summary>The same brief as a model reads it</summary>
            <article class="brief">
              <Markdown text={loaded.data.text} breaks />
            </article>
          </details>
        </>
      )}
    </div>
  );
}

type AiState =
  | { state: "idle" }
  | { state: "writing" }
  | { state: "done"; ai: AiResumeView }
  | { state: "error"; error: Error };

/** AI Resume: the model's shorter brief, shown only when it keeps every must-keep fact and its citations check out. */
function AiBrief(props: { sessionId: string; budget: string | undefined }): JSX.Element {
  const [ai, setAi] = useState<AiState>({ state: "idle" });
  const write = (): void => {
    setAi({ state: "writing" });
    const budget = props.budget !== undefined ? Number(props.budget) : undefined;
    postJson<AiResumeView>("/api/ask/resume", { session: props.sessionId, ...(budget ? { budget } : {}) }).then(
      (result) => setAi({ state: "done", ai: result }),
      (error: unknown) => setAi({ state: "error", error: error as Error }),
    );
  };
  return (
    <section class="ai-brief" aria-label="AI Resume">
      <button type="button" id="ai-resume" onClick={write} disabled={ai.state === "writing"}>
        {ai.state === "writing" ? "Writing…" : "AI Resume"}
      </button>
      {ai.state === "error" && <Failure error={ai.error} what="the AI brief" />}
      {ai.state === "done" && ai.ai.chosen === "ai" && (
        <>
          <p class="check ok" role="status">
            {ai.ai.model} wrote it in {ai.ai.ai_tokens.toLocaleString("en")} tokens (the brief below:{" "}
            {ai.ai.brief_tokens.toLocaleString("en")}); it keeps all {ai.ai.must_keep} must-keep facts and its citations
            check out.
          </p>
          <article class="brief ai">
            <Markdown text={ai.ai.text} breaks />
          </article>
        </>
      )}
      {ai.state === "done" && ai.ai.chosen !== "ai" && (
        <p class="check partial" role="status">
          The brief {ai.ai.model} wrote was rejected: {ai.ai.check.reasons.join(", and ")}
          {ai.ai.check.missing.length > 0 && ` (${ai.ai.check.missing.slice(0, 3).join("; ")})`}. The brief below
          stands.
        </p>
      )}
    </section>
  );
}

/** Which agent, where, up to when, how much: the line under the title. */
function Facts(props: { view: BriefView }): JSX.Element {
  const f = props.view.facts;
  const folder = f.cwd?.split(/[\\/]/).filter(Boolean).at(-1);
  const parts = [
    f.provider,
    folder ? `in ${folder}` : null,
    f.branch ? `on ${f.branch}` : null,
    f.until ? `up to ${f.until.slice(0, 16).replace("T", " ")}` : null,
    `${f.events.toLocaleString("en")} events`,
  ];
  return <span>{parts.filter(Boolean).join(" · ")} · </span>;
}
