/**
 * "Continue live" on a pi session's timeline: makes it the server's live session (the `resume_session`
 * command) and opens the live view. Offered when the server drives pi in the session's own folder; otherwise
 * it says how to start `cairn serve` so that it can.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { SessionSummary } from "../../src/live/history-types.ts";
import { useJson } from "../api.ts";
import { liveConnection, useLive } from "../live/live-store.ts";
import { navigate, paths } from "../router.tsx";

interface StateAnswer {
  state: { driver: string; cwd: string; sessionId: string | null };
}

export function ContinueLive(props: { session: SessionSummary }): JSX.Element | null {
  const { session } = props;
  const live = useLive();
  const state = useJson<StateAnswer>(session.provider === "pi" ? "/api/state" : null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  if (session.provider !== "pi" || state.state !== "ready") return null;
  const { driver, cwd, sessionId } = state.data.state;
  if (sessionId === session.session_id) {
    return (
      <button type="button" class="primary" onClick={() => navigate(paths.live())}>
        Open live
      </button>
    );
  }
  const usable = driver === "pi" && session.cwd === cwd;
  const why =
    driver !== "pi" ? (
      <>
        This server runs another agent; start <code>cairn serve</code> (pi is the default) to continue pi sessions.
      </>
    ) : (
      <>
        This server works in {cwd}; start <code>cairn serve --cwd {session.cwd ?? "<the session's folder>"}</code> to
        continue this session.
      </>
    );
  const go = (): void => {
    setBusy(true);
    void liveConnection()
      .send({ type: "resume_session", sessionId: session.session_id })
      .then((reply) => {
        setBusy(false);
        if (reply.kind === "ack") navigate(paths.live());
        else setError(reply.message);
      });
  };
  return (
    <span class="continue-live">
      <button
        type="button"
        class="primary"
        id="continue-live"
        disabled={!usable || busy || live.state !== "live"}
        onClick={go}
        aria-describedby={usable ? undefined : "continue-why"}
      >
        Continue live
      </button>
      {!usable && (
        <span class="meta" id="continue-why">
          {why}
        </span>
      )}
      {error && (
        <span class="bad" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
