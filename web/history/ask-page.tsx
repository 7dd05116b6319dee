/**
 * Ask the history (`/ask`, `?session=ID` to ask about one session): the question goes to the model `cairn serve`
 * was configured with, and the answer comes back with every citation checked. Supported sentences read as
 * they are; unsupported and uncited ones are marked, and the cited events are listed with links.
 */
import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import type { AskAnswerView } from "../../src/live/history-types.ts";
import { postJson } from "../api.ts";
import { Link, paths } from "../router.tsx";
import { Failure } from "../ui/empty.tsx";
import { Markdown } from "../ui/markdown.tsx";

type State =
  | { state: "idle" }
  | { state: "asking"; question: string }
  | { state: "done"; answer: AskAnswerView }
  | { state: "error"; error: Error };

export function AskPage(props: { query: URLSearchParams }): JSX.Element {
  const session = props.query.get("session") ?? undefined;
  const [question, setQuestion] = useState(props.query.get("q") ?? "");
  const [result, setResult] = useState<State>({ state: "idle" });
  const pending = useRef<AbortController | null>(null);
  const submit = (event: Event): void => {
    event.preventDefault();
    const q = question.trim();
    if (!q) return;
    pending.current?.abort();
    const abort = new AbortController();
    pending.current = abort;
    setResult({ state: "asking", question: q });
    postJson<AskAnswerView>("/api/ask", { question: q, ...(session ? { session } : {}) }, abort.signal).then(
      (answer) => setResult({ state: "done", answer }),
      (error: unknown) => {
        if (!abort.signal.aborted) setResult({ state: "error", error: error as Error });
      },
    );
  };
  return (
    <div class="page ask-page">
      <header class="page-head">
        <h1>Ask your history</h1>
        <p class="meta">
          {session ? (
            <span>
              about <Link href={paths.timeline(session)}>session {session}</Link>;{" "}
            </span>
          ) : null}
          answered by the model cairn serve was started with, from evidence in the index; every citation is checked
        </p>
      </header>
      <form class="ask-form" onSubmit={submit}>
        <label for="ask-box" class="visually-hidden">
          Question
        </label>
        <input
          id="ask-box"
          type="text"
          value={question}
          placeholder="why did the cart test fail? what was decided about the tokenizer?"
          onInput={(e) => setQuestion(e.currentTarget.value)}
        />
        <button type="submit" disabled={result.state === "asking"}>
          Ask
        </button>
      </form>
      {result.state === "asking" && (
        <p class="muted" aria-busy="true">
          Asking…
        </p>
      )}
      {result.state === "error" && <Failure error={result.error} what="the answer" />}
      {result.state === "done" && <Answer answer={result.answer} />}
    </div>
  );
}

/** Why a sentence is not supported, from its citations' verdicts (`ask/check.ts`). */
function why(s: AskAnswerView["check"]["sentences"][number]): string {
  if (s.verdict === "uncited") return "no citation";
  const verdicts = new Set(s.citations.map((c) => c.verdict));
  if (verdicts.has("unknown_id")) return "cites an event that does not exist";
  if (verdicts.has("not_in_pack")) return "cites an event the model was not given";
  return "its citation does not support it";
}

function Answer(props: { answer: AskAnswerView }): JSX.Element {
  const { answer } = props;
  const { check } = answer;
  const all = check.supported === check.claims;
  return (
    <section class="ask-answer" aria-label="Answer">
      <p class={all ? "check ok" : "check partial"} role="status">
        {check.supported} of {check.claims} claims cite evidence that supports them · {answer.model}
      </p>
      <div class="sentences">
        {check.sentences.map((s, i) => (
          <div key={i} class={`sentence ${s.verdict}`} data-verdict={s.verdict}>
            <Markdown text={s.text} />
            {(s.verdict === "unsupported" || s.verdict === "uncited") && <span class="verdict">{why(s)}</span>}
          </div>
        ))}
      </div>
      {answer.cited.length > 0 && (
        <>
          <h2>Cited events</h2>
          <ul class="cited">
            {answer.cited.map((e) => (
              <li key={e.event_id}>
                <Link href={paths.event(e.event_id)} class="cite">
                  {e.event_id}
                </Link>{" "}
                <span class="provider">{e.provider}</span> {e.event_type}
                {e.status ? ` (${e.status})` : ""} {!e.in_pack && <span class="verdict">not in the evidence</span>}{" "}
                <span class="muted">{e.line}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
