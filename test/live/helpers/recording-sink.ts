import type { Envelope, ServerFrame, SnapshotFrame } from "../../../src/live/protocol.ts";
import type { LiveSink } from "../../../src/live/sink.ts";

export interface RecordingSink extends LiveSink {
  frames: ServerFrame[];
  closedWith: { code: number; reason: string } | null;
  envelopes(): Envelope[];
  snapshots(): SnapshotFrame[];
  /** Event types in order, e.g. ["turn_started", "response_start", …]. */
  types(): string[];
}

/** A sink that keeps every frame it is given, parsed back from the shared JSON as a real socket would. */
export function createRecordingSink(): RecordingSink {
  const sink: RecordingSink = {
    frames: [],
    closedWith: null,
    send(out) {
      sink.frames.push(JSON.parse(out.json) as ServerFrame);
    },
    close(code, reason) {
      sink.closedWith = { code, reason };
    },
    envelopes: () => sink.frames.filter((f): f is Envelope => f.kind === "event"),
    snapshots: () => sink.frames.filter((f): f is SnapshotFrame => f.kind === "snapshot"),
    types: () => sink.envelopes().map((e) => e.event.type),
  };
  return sink;
}
