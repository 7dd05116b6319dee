/**
 * The page's one live connection, opened when the page loads and shared by every view (the header shows its
 * state and how many prompts wait, wherever the user is). Views read it through `useLive`, which re-renders
 * at most once per animation frame however fast events arrive.
 */
import { useEffect, useState } from "preact/hooks";
import type { CommandReply, Envelope, LiveView } from "../../src/live/protocol.ts";
import { type Connection, type ConnectionState, connect } from "./connection.ts";

/** Something another tab did that this tab should be told about. */
export interface Announcement {
  id: number;
  text: string;
  /** The session that ended, whose transcript is in history. */
  endedSessionId?: string;
}

export interface LiveSnapshot {
  view: LiveView | null;
  state: ConnectionState;
  detail: string;
  announcement: Announcement | null;
}

type Listener = () => void;

let snapshot: LiveSnapshot = { view: null, state: "connecting", detail: "", announcement: null };
const listeners = new Set<Listener>();
let frame = 0;
let connection: Connection | null = null;
let announcements = 0;

const flush = (): void => {
  frame = 0;
  for (const l of [...listeners]) l();
};
const schedule = (): void => {
  if (!frame) frame = requestAnimationFrame(flush);
};

function announce(envelope: Envelope): void {
  const event = envelope.event;
  if (event.type !== "session_cleared") return;
  if (event.byViewport && event.byViewport === connection?.viewportId) return;
  const what =
    event.reason === "new_session"
      ? "A new session was started in another tab."
      : event.reason === "resume_session"
        ? "Another tab switched to a saved session."
        : event.reason === "shutdown"
          ? "The server is shutting down."
          : "The session was cleared in another tab.";
  const next: Announcement = { id: ++announcements, text: what };
  if (event.sessionId) next.endedSessionId = event.sessionId;
  snapshot = { ...snapshot, announcement: next };
}

export function startLive(): Connection {
  if (connection) return connection;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  connection = connect(url, {
    onView(view) {
      // The reducer mutates the view in place; a new snapshot object tells the hooks something changed.
      snapshot = { ...snapshot, view };
      schedule();
    },
    onState(state, detail) {
      snapshot = { ...snapshot, state, detail };
      schedule();
    },
    onEvent(envelope) {
      announce(envelope);
    },
  });
  return connection;
}

export function dismissAnnouncement(): void {
  snapshot = { ...snapshot, announcement: null };
  schedule();
}

export function useLive(): LiveSnapshot {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = (): void => setTick((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return snapshot;
}

export function liveConnection(): Connection {
  return startLive();
}

/** The epoch a command should be scoped to, if the page has seen one. */
export function scoped(): { expectEpoch?: string } {
  const epoch = connection?.epoch;
  return epoch ? { expectEpoch: epoch } : {};
}

export type { CommandReply };
