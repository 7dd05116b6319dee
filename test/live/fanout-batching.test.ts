/**
 * Under load a viewport gets one WebSocket message per server turn: the frames of one turn travel as a JSON array,
 * in order, built once for every viewport (docs/live-protocol.md §3). A lone frame still travels alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLiveController, type LiveController } from "../../src/live/controller.ts";
import type { LiveDriver } from "../../src/live/drivers/types.ts";
import type { Envelope, ServerFrame } from "../../src/live/protocol.ts";
import { type LiveServerHandle, startLiveServer } from "../../src/live/server/listen.ts";
import { connect, type TestSocket } from "./helpers/http.ts";

const CHUNKS = ["a", "b", "c", "d", "e"];

/** A driver whose turn emits every chunk in one synchronous burst, as a fast model under load does. */
const burstDriver: LiveDriver = {
  name: "scripted",
  cwd: tmpdir(),
  async open() {
    return {
      sessionId: "burst",
      model: "burst",
      async runTurn(_text, ctx) {
        for (const delta of CHUNKS) ctx.emit({ type: "response_chunk", messageId: "m", delta });
        return { status: "completed" };
      },
      async interrupt() {},
      async close() {},
    };
  },
};

let web: string;
let server: LiveServerHandle;
let controller: LiveController;

beforeAll(async () => {
  web = mkdtempSync(join(tmpdir(), "cairn-batch-"));
  controller = createLiveController({ driver: burstDriver });
  server = await startLiveServer({ controller, webRoot: web, port: 0 });
});

afterAll(async () => {
  await server.close();
  await controller.dispose();
  rmSync(web, { recursive: true, force: true });
});

const isChunk = (f: ServerFrame): f is Envelope => f.kind === "event" && f.event.type === "response_chunk";

async function subscribed(): Promise<TestSocket> {
  const socket = await connect(server.port, { Authorization: `Bearer ${server.token}` });
  await socket.waitFor((f) => f.kind === "hello");
  socket.send({ type: "subscribe", clientMsgId: "s" });
  await socket.waitFor((f) => f.kind === "ack");
  return socket;
}

it("a burst of events reaches every viewport as one message holding the frames in order", async () => {
  const viewports = [await subscribed(), await subscribed()];
  const sent = await controller.sendMessage({ text: "go" });
  await sent.done;
  for (const v of viewports) {
    await v.waitFor((f) => isChunk(f) && f.event.type === "response_chunk" && f.event.delta === "e");
    const chunks = v.frames.filter(isChunk);
    expect(chunks.map((f) => (f.event.type === "response_chunk" ? f.event.delta : ""))).toEqual(CHUNKS);
    expect(chunks.map((f) => f.seq)).toEqual(chunks.map((_, i) => chunks[0]!.seq + i));
    const carrying = v.messages.filter((m) => m.includes('"response_chunk"'));
    expect(carrying).toHaveLength(1);
    expect(Array.isArray(JSON.parse(carrying[0]!))).toBe(true);
  }
  // The same message for both viewports (it is encoded once and shared).
  const [a, b] = viewports.map((v) => v.messages.find((m) => m.includes('"response_chunk"')));
  expect(a).toBe(b);
  // The hello came alone, as a plain frame.
  expect(JSON.parse(viewports[0]!.messages[0]!).kind).toBe("hello");
  for (const v of viewports) v.ws.close();
});
