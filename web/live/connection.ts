/**
 * The viewport's side of the live protocol: one WebSocket, reconnected with backoff for as long as the page is
 * open. Keeps `epoch` and `lastSeq`, drops envelopes it has seen, resubscribes with `afterSeq` on a gap, and
 * replaces its view wholesale on a snapshot. Commands carry a `clientMsgId` and are resent after a reconnect
 * until acked: the server answers a retry with the original reply, so nothing runs twice.
 *
 * Browsers cannot see WebSocket pings, so the page sends its own `ping` every few seconds; a connection that
 * delivers nothing (no frame, no pong) for `deadAfterMs` is treated as dead, closed and reopened. The
 * browser's `offline` event only makes it check at once.
 */
import type { ClientCommand, CommandReply, Envelope, LiveView, ServerFrame } from "../../src/live/protocol.ts";
import { applyEvent, createEmptyView } from "../../src/live/view-state.ts";

export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline";

export interface ConnectionEvents {
  onView(view: LiveView, epoch: string): void;
  onState(state: ConnectionState, detail: string): void;
  /** Every applied event, after the view took it (for announcements such as another tab's new session). */
  onEvent?(envelope: Envelope): void;
}

type CommandInput = ClientCommand extends infer C ? (C extends ClientCommand ? Omit<C, "clientMsgId"> : never) : never;

export interface Connection {
  send(command: CommandInput): Promise<CommandReply>;
  readonly epoch: string | null;
  readonly viewportId: string | null;
  readonly state: ConnectionState;
}

export interface ConnectOptions {
  pingEveryMs?: number;
  deadAfterMs?: number;
}

const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

export function connect(url: string, events: ConnectionEvents, options: ConnectOptions = {}): Connection {
  const pingEveryMs = options.pingEveryMs ?? 2_000;
  const deadAfterMs = options.deadAfterMs ?? 5_000;
  let socket: WebSocket | null = null;
  let epoch: string | null = null;
  let viewportId: string | null = null;
  let lastSeq = 0;
  let view: LiveView = createEmptyView();
  let attempt = 0;
  let subscribed = false;
  let subscribeId: string | null = null;
  let state: ConnectionState = "connecting";
  let lastHeard = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const pending = new Map<string, { command: ClientCommand; resolve: (reply: CommandReply) => void }>();

  const setState = (next: ConnectionState, detail: string): void => {
    state = next;
    events.onState(next, detail);
  };

  const publish = (): void => {
    if (epoch !== null) events.onView(view, epoch);
  };

  const write = (message: ClientCommand | { type: "ping"; t: number }): void => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  const subscribe = (fromScratch: boolean): void => {
    subscribed = false;
    subscribeId = crypto.randomUUID();
    const command: ClientCommand =
      fromScratch || epoch === null
        ? { type: "subscribe", clientMsgId: subscribeId }
        : { type: "subscribe", clientMsgId: subscribeId, afterSeq: lastSeq, epoch };
    write(command);
  };

  const onFrame = (frame: ServerFrame): void => {
    switch (frame.kind) {
      case "pong":
        return;
      case "hello":
        viewportId = frame.viewportId;
        subscribe(frame.epoch !== epoch);
        return;
      case "snapshot":
        epoch = frame.epoch;
        lastSeq = frame.seq;
        view = frame.view;
        publish();
        return;
      case "event": {
        if (frame.epoch !== epoch) {
          subscribe(true);
          return;
        }
        if (frame.seq <= lastSeq) return;
        if ((frame.firstSeq ?? frame.seq) > lastSeq + 1) {
          subscribe(false);
          return;
        }
        applyEvent(view, frame.event, frame.turnId);
        lastSeq = frame.seq;
        publish();
        events.onEvent?.(frame);
        return;
      }
      case "ack":
      case "nack": {
        if (frame.clientMsgId !== null && frame.clientMsgId === subscribeId) {
          // Subscribed: now (re)send whatever is still waiting for an answer, e.g. from before a drop.
          subscribed = true;
          setState("live", "");
          for (const entry of pending.values()) write(entry.command);
          return;
        }
        const entry = frame.clientMsgId ? pending.get(frame.clientMsgId) : undefined;
        if (entry && frame.clientMsgId) {
          pending.delete(frame.clientMsgId);
          entry.resolve(frame);
        }
        return;
      }
    }
  };

  /** Forgets the current socket (it may never report its close) and schedules a new one. */
  const drop = (reason: string, delayMs?: number): void => {
    const ws = socket;
    socket = null;
    subscribed = false;
    if (ws) {
      try {
        ws.close(4000, reason.slice(0, 100));
      } catch {}
    }
    const delay = delayMs ?? BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
    attempt++;
    setState(navigator.onLine ? "reconnecting" : "offline", reason);
    clearTimeout(retry);
    retry = setTimeout(open, delay + Math.random() * 100);
  };

  const open = (): void => {
    if (state !== "offline" || attempt === 0)
      setState(attempt === 0 ? "connecting" : "reconnecting", attempt === 0 ? "" : `attempt ${attempt}`);
    const ws = new WebSocket(url);
    socket = ws;
    lastHeard = Date.now();
    ws.addEventListener("open", () => {
      if (socket !== ws) return;
      attempt = 0;
      lastHeard = Date.now();
    });
    ws.addEventListener("message", (message) => {
      if (socket !== ws) return;
      lastHeard = Date.now();
      try {
        // A message is one frame, or an array of the frames one server turn produced (docs/live-protocol.md §3).
        const data = JSON.parse(String(message.data)) as ServerFrame | ServerFrame[];
        for (const frame of Array.isArray(data) ? data : [data]) onFrame(frame);
      } catch (error) {
        console.error("cairn live: bad frame", error);
      }
    });
    ws.addEventListener("close", (close) => {
      if (socket !== ws) return;
      // 4008: the server dropped us for falling behind; come straight back and catch up.
      drop(close.reason || `closed (${close.code})`, close.code === 4008 ? 0 : undefined);
    });
  };

  setInterval(() => {
    const ws = socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      // A socket stuck connecting (e.g. the network went away mid-handshake) is dead too.
      if (ws && Date.now() - lastHeard > deadAfterMs) drop("no answer from the server");
      return;
    }
    if (Date.now() - lastHeard > deadAfterMs) {
      drop("no answer from the server");
      return;
    }
    write({ type: "ping", t: Date.now() });
  }, pingEveryMs);

  addEventListener("offline", () => {
    if (socket) {
      // Ask now; the heartbeat decides. Loopback may well still work without a network.
      write({ type: "ping", t: Date.now() });
      if (!subscribed) setState("offline", "the browser is offline");
    }
  });
  addEventListener("online", () => {
    if (!socket || state !== "live") {
      attempt = 0;
      drop("the browser is back online", 0);
    }
  });

  open();
  return {
    get epoch() {
      return epoch;
    },
    get viewportId() {
      return viewportId;
    },
    get state() {
      return state;
    },
    send(input) {
      const command = { ...input, clientMsgId: crypto.randomUUID() } as ClientCommand;
      return new Promise((resolve) => {
        pending.set(command.clientMsgId, { command, resolve });
        if (subscribed) write(command);
      });
    },
  };
}
