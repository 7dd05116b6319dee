/**
 * Prompts waiting for an answer. The panel takes at most half the window and scrolls on its own; each card's
 * body scrolls inside it, so Deny and Allow stay in view however long the input is (a 360-line write).
 * Deny comes before Allow on every tab, always; a `defaultToNo` prompt opens focused on Deny. Every string in a
 * prompt is untrusted and shown as text. While the connection is not live, nothing can be answered.
 */
import type { JSX } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { PendingPrompt, PromptResponse } from "../../src/live/protocol.ts";
import { summarize, toolAction } from "./tool-input.ts";
import { ToolInputView } from "./tool-view.tsx";

export type Answer = (prompt: PendingPrompt, response: PromptResponse) => void;

interface Props {
  prompts: PendingPrompt[];
  answer: Answer;
  live: boolean;
}

export function PromptPanel(props: Props): JSX.Element | null {
  if (props.prompts.length === 0) return null;
  return (
    <section class="prompts" aria-label="Waiting for your answer">
      {props.prompts.map((p) =>
        p.kind === "tool_permission" ? (
          <PermissionCard key={p.id} prompt={p} answer={props.answer} live={props.live} />
        ) : (
          <QuestionCard key={p.id} prompt={p} answer={props.answer} live={props.live} />
        ),
      )}
    </section>
  );
}

function PermissionCard(props: { prompt: PendingPrompt; answer: Answer; live: boolean }): JSX.Element {
  const { prompt } = props;
  const [sent, setSent] = useState(false);
  const deny = useRef<HTMLButtonElement>(null);
  const action = useMemo(() => toolAction(prompt.toolName, prompt.input), [prompt.toolName, prompt.input]);
  useEffect(() => {
    if (prompt.defaultToNo) deny.current?.focus();
  }, [prompt.defaultToNo]);
  const respond = (allow: boolean): void => {
    setSent(true);
    props.answer(prompt, { kind: "tool_permission", allow });
  };
  const disabled = sent || !props.live;
  return (
    <section class="prompt" data-prompt-id={prompt.id} data-kind={prompt.kind} aria-labelledby={`p-${prompt.id}`}>
      <h2 id={`p-${prompt.id}`}>{prompt.title ?? `Allow ${prompt.toolName}?`}</h2>
      <p class="prompt-summary">
        <span class="tool-name">{prompt.toolName}</span> {summarize(action)}
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long input scrolls here; keys must reach it too. */}
      <section class="prompt-body prompt-input" tabIndex={0} aria-label="What the tool will do">
        <ToolInputView action={action} input={prompt.input} foldLines={400} />
      </section>
      <div class="actions">
        <button type="button" class="deny" ref={deny} disabled={disabled} onClick={() => respond(false)}>
          Deny
        </button>
        <button type="button" class="allow" disabled={disabled} onClick={() => respond(true)}>
          Allow
        </button>
        {!props.live && <span class="muted">Reconnecting… answers wait until the page is live again.</span>}
      </div>
    </section>
  );
}

function QuestionCard(props: { prompt: PendingPrompt; answer: Answer; live: boolean }): JSX.Element {
  const { prompt } = props;
  const questions = prompt.questions ?? [];
  const [sent, setSent] = useState(false);
  const [others, setOthers] = useState<Record<number, string>>({});
  const submit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const answers: Record<string, string> = {};
    questions.forEach((q, qi) => {
      const other = String(data.get(`q${qi}-other`) ?? "").trim();
      answers[q.question] = other || data.getAll(`q${qi}`).map(String).join(", ");
    });
    setSent(true);
    props.answer(prompt, { kind: "ask_user_question", answers });
  };
  return (
    <form class="prompt" data-prompt-id={prompt.id} data-kind={prompt.kind} onSubmit={submit}>
      <h2>{prompt.title ?? "The agent has a question"}</h2>
      <div class="prompt-body">
        {questions.map((q, qi) => (
          <fieldset key={qi}>
            <legend>{q.header ? `${q.header}: ${q.question}` : q.question}</legend>
            {q.options.map((option, oi) => (
              <label key={option.label}>
                <input
                  type={q.multiSelect ? "checkbox" : "radio"}
                  name={`q${qi}`}
                  value={option.label}
                  required={!q.multiSelect && oi === 0 && !(others[qi] ?? "").trim()}
                />{" "}
                {option.label}
                {option.description && <span class="hint"> — {option.description}</span>}
              </label>
            ))}
            <label>
              Other:{" "}
              <input
                type="text"
                name={`q${qi}-other`}
                onInput={(e) => setOthers({ ...others, [qi]: e.currentTarget.value })}
              />
            </label>
          </fieldset>
        ))}
      </div>
      <div class="actions">
        <button type="submit" class="allow" disabled={sent || !props.live}>
          Answer
        </button>
      </div>
    </form>
  );
}
