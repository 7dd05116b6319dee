/**
 * The viewport's side of the live protocol: one WebSocket, reconnected with backoff for as long as the page is
 * open. Keeps `epoch` and `lastSeq`, drops envelopes it has seen, resubscribes with `afterSeq` on a gap, and
 * replaces its view wholesale on a snapshot. Commands carry a `clientMsgId` and are resent after a reconnect
 * until acked: the server answers a retry with the original reply, so nothing runs twice.
 */
import type { ClientCommand, CommandReply, LiveView, ServerFrame } from "../src/live/protocol.ts";
import { applyEvent, createEmptyView } from "../src/live/view-state.ts";

export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline";

export interface ConnectionEvents {
  onView(view: LiveView, epoch: string): void;
  onState(state: ConnectionState, detail: string): void;
}

type CommandInput = ClientCommand extends infer C ? (C extends ClientCommand ? Omit<C, "clientMsgId"> : never) : never;

export interface Connection {
  send(command: CommandInput): Promise<CommandReply>;
  readonly epoch: string | null;
}

const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

export function connect(url: string, events: ConnectionEvents): Connection {
  let socket: WebSocket | null = null;
  let epoch: string | null = null;
  let lastSeq = 0;
  let view: LiveView = createEmptyView();
  let attempt = 0;
  let subscribed = false;
  let subscribeId: string | null = null;
  const pending = new Map<string, { command: ClientCommand; resolve: (reply: CommandReply) => void }>();

  const publish = (): void => {
    if (epoch !== null) events.onView(view, epoch);
  };

  const write = (command: ClientCommand): void => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
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
      case "hello":
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
        return;
      }
      case "ack":
      case "nack": {
        if (frame.clientMsgId !== null && frame.clientMsgId === subscribeId) {
          // Subscribed: now (re)send whatever is still waiting for an answer, e.g. from before a drop.
          subscribed = true;
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

  const open = (): void => {
    events.onState(attempt === 0 ? "connecting" : "reconnecting", attempt === 0 ? "" : `attempt ${attempt}`);
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener("open", () => {
      attempt = 0;
      events.onState("live", "");
    });
    ws.addEventListener("message", (message) => {
      try {
        onFrame(JSON.parse(String(message.data)) as ServerFrame);
      } catch (error) {
        console.error("cairn live: bad frame", error);
      }
    });
    ws.addEventListener("close", (close) => {
      if (socket !== ws) return;
      socket = null;
      subscribed = false;
      // 4008: the server dropped us for falling behind; come straight back and catch up.
      const delay = close.code === 4008 ? 0 : BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
      attempt++;
      events.onState(navigator.onLine ? "reconnecting" : "offline", close.reason || `closed (${close.code})`);
      setTimeout(open, delay + Math.random() * 100);
    });
  };

  open();
  return {
    get epoch() {
      return epoch;
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
