/**
 * The live view: the transcript, the prompts waiting for an answer, and the composer. Every button sends one
 * command over the shared connection; a refusal is shown as a toast. Clear and New session ask first, and
 * other tabs are told when this one started a new session.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { CommandReply, PendingPrompt, PromptResponse } from "../../src/live/protocol.ts";
import { Link, paths } from "../router.tsx";
import { ConfirmDialog } from "../ui/confirm.tsx";
import { Empty } from "../ui/empty.tsx";
import { dismissAnnouncement, liveConnection, scoped, useLive } from "./live-store.ts";
import { PromptPanel } from "./prompt-panel.tsx";
import { Transcript } from "./transcript.tsx";

type Asking = "clear" | "new" | null;

export function LivePage(props: { notify(text: string): void }): JSX.Element {
  const live = useLive();
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const [asking, setAsking] = useState<Asking>(null);
  const connection = liveConnection();
  const view = live.view;
  const isLive = live.state === "live";
  const streaming = view?.turnId != null;

  const report = (reply: CommandReply): CommandReply => {
    // A lost prompt race is expected with several tabs and is not an error.
    if (reply.kind === "nack" && reply.code !== "already_resolved") props.notify(reply.message);
    return reply;
  };
  const answer = (prompt: PendingPrompt, response: PromptResponse): void => {
    void connection.send({ type: "respond_prompt", promptId: prompt.id, response, ...scoped() }).then(report);
  };
  const submit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || sending) return;
    setSending(true);
    void connection
      .send({ type: "send_message", text, ...scoped() })
      .then(report)
      .then((reply) => {
        setSending(false);
        if (reply.kind === "ack") setDraft("");
      });
  };
  const confirm = (): void => {
    const what = asking;
    setAsking(null);
    if (what === "clear") void connection.send({ type: "clear_session", ...scoped() }).then(report);
    if (what === "new") void connection.send({ type: "new_session" }).then(report);
  };

  const info = [view?.driver, view?.model, view?.cwd].filter((p): p is string => Boolean(p)).join(" · ");
  return (
    <div class="live" data-streaming={String(streaming)}>
      <h1 class="visually-hidden">Live session</h1>
      <div class="toolbar">
        <span class="session-info" id="session" title={info}>
          {info || "no session yet"}
        </span>
        <span class="spacer" />
        <button
          type="button"
          id="interrupt"
          disabled={!streaming || !isLive}
          onClick={() => void connection.send({ type: "interrupt" }).then(report)}
        >
          Interrupt
        </button>
        <button type="button" id="clear" onClick={() => setAsking("clear")}>
          Clear
        </button>
        <button type="button" id="new-session" onClick={() => setAsking("new")}>
          New session
        </button>
      </div>
      {live.announcement && (
        <div class="announcement" role="status" id="announcement">
          <span>{live.announcement.text}</span>
          {live.announcement.endedSessionId && (
            <Link href={paths.timeline(live.announcement.endedSessionId)}>Open the previous session</Link>
          )}
          <button type="button" class="link-button" onClick={dismissAnnouncement}>
            Dismiss
          </button>
        </div>
      )}
      {view ? (
        <Transcript
          view={view}
          empty={
            <Empty title="Nothing here yet">
              <p>Type a message below to start the agent{view.cwd ? ` in ${view.cwd}` : ""}.</p>
            </Empty>
          }
        />
      ) : (
        <div class="transcript">
          <Empty title="Connecting to the live session…" />
        </div>
      )}
      <PromptPanel prompts={view?.openPrompts ?? []} answer={answer} live={isLive} />
      <form class="composer" id="composer" onSubmit={submit}>
        <label class="visually-hidden" for="message">
          Message the agent
        </label>
        <textarea
          id="message"
          rows={2}
          placeholder="Message the agent (Enter to send, Shift+Enter for a new line)"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button type="submit" id="send" class="primary" disabled={streaming || sending || !isLive}>
          Send
        </button>
      </form>
      {asking === "clear" && (
        <ConfirmDialog
          title="Clear this session?"
          confirmLabel="Clear"
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>The running turn is stopped and open prompts are cancelled in every tab.</p>
        </ConfirmDialog>
      )}
      {asking === "new" && (
        <ConfirmDialog
          title="Start a new session?"
          confirmLabel="Start new session"
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>
            The current session ends for every open tab: its running turn stops and its prompts are cancelled. Its
            transcript stays in history.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
