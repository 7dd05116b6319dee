/**
 * Live fan-out: one session streaming 1,000 events/s to 100 viewports that are real WebSocket clients on
 * loopback. Prints delivery latency (emit → client `message` event) p50/p90/p99/max and the server's memory
 * per subscribed viewport. Goal: p99 ≤ 5 ms.
 *
 * The server runs on this thread; the 100 clients run in a worker thread so their parsing does not share the
 * server's event loop. Each chunk carries its emit time (performance.timeOrigin + now, shared by both threads).
 *
 *   npm run bench -- live            (LIVE_BENCH_VIEWPORTS, LIVE_BENCH_RATE, LIVE_BENCH_SECONDS override)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { createLiveController } from "../src/live/controller.ts";
import type { DriverSession, LiveDriver, TurnContext } from "../src/live/drivers/types.ts";
import { startLiveServer } from "../src/live/server/listen.ts";

const VIEWPORTS = Number(process.env["LIVE_BENCH_VIEWPORTS"] ?? 100);
const RATE = Number(process.env["LIVE_BENCH_RATE"] ?? 1_000);
const SECONDS = Number(process.env["LIVE_BENCH_SECONDS"] ?? 5);
const WARMUP_SECONDS = 1;

const clock = (): number => performance.timeOrigin + performance.now();
const gc = (globalThis as { gc?: () => void }).gc;

/** A driver whose one turn emits `total` chunks at `rate` per second, stamped with their emit time. */
function createPacedDriver(total: number, rate: number): LiveDriver {
  return {
    name: "scripted",
    cwd: tmpdir(),
    async open() {
      const session: DriverSession = {
        sessionId: "bench",
        model: "bench",
        runTurn(_text: string, ctx: TurnContext) {
          return new Promise((resolve) => {
            const start = performance.now();
            let sent = 0;
            const tick = (): void => {
              // Emit whatever is due by now: an average of `rate`/s in bursts of a few events at most.
              const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
              while (sent < due) {
                ctx.emit({ type: "response_chunk", messageId: "m", delta: `${clock().toFixed(3)}|` });
                sent++;
              }
              if (sent >= total) resolve({ status: "completed" });
              else setTimeout(tick, 1);
            };
            tick();
          });
        },
        async interrupt() {},
        async close() {},
      };
      return session;
    },
  };
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { WebSocket } = require(workerData.wsPath);
const { port, token, viewports } = workerData;
let warmupUntil = Infinity;
const latencies = [];
let received = 0, ready = 0, closed = 0;
const clock = () => performance.timeOrigin + performance.now();
for (let i = 0; i < viewports; i++) {
  const ws = new WebSocket("ws://127.0.0.1:" + port + "/ws", { headers: { Authorization: "Bearer " + token } });
  ws.on("message", (data) => {
    const now = clock();
    const text = data.toString();
    // Chunks are found by a string scan, not JSON.parse: the harness must not be what is being measured. A
    // message holds one frame or an array of the frames of one server turn; each chunk in it counts.
    let at = text.indexOf('"delta":"');
    if (at !== -1) {
      while (at !== -1) {
        received++;
        const sentAt = parseFloat(text.slice(at + 9));
        if (sentAt >= warmupUntil) latencies.push(now - sentAt);
        at = text.indexOf('"delta":"', at + 9);
      }
      return;
    }
    for (const frame of [].concat(JSON.parse(text))) {
      if (frame.kind === "hello") ws.send(JSON.stringify({ type: "subscribe", clientMsgId: "s" + i }));
      else if (frame.kind === "ack" && ++ready === viewports) parentPort.postMessage({ type: "ready" });
    }
  });
  ws.on("close", () => closed++);
}
let elu = performance.eventLoopUtilization();
parentPort.on("message", (m) => {
  if (typeof m === "object" && m.warmupUntil) { warmupUntil = m.warmupUntil; elu = performance.eventLoopUtilization(); }
  if (m === "report") parentPort.postMessage({ type: "report", latencies, received, closed, elu: performance.eventLoopUtilization(elu).utilization });
});
`;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<void> {
  const total = (WARMUP_SECONDS + SECONDS) * RATE;
  const web = mkdtempSync(join(tmpdir(), "cairn-bench-web-"));
  const controller = createLiveController({ driver: createPacedDriver(total, RATE) });
  const server = await startLiveServer({
    controller,
    webRoot: web,
    limits: { maxConnections: VIEWPORTS + 10 },
  });

  gc?.();
  const before = process.memoryUsage();
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      wsPath: import.meta
        .resolve("ws")
        .replace("file://", "")
        .replace(/\/[^/]*$/, ""),
      port: server.port,
      token: server.token,
      viewports: VIEWPORTS,
    },
  });
  const messages: Array<(m: { type: string }) => void> = [];
  worker.on("message", (m: { type: string }) => messages.shift()?.(m));
  const next = <T>(): Promise<T> => new Promise((resolve) => messages.push(resolve as (m: { type: string }) => void));
  await next();
  gc?.();
  const connected = process.memoryUsage();

  const started = performance.now();
  worker.postMessage({ warmupUntil: clock() + WARMUP_SECONDS * 1000 });
  const elu = performance.eventLoopUtilization();
  const sent = await controller.sendMessage({ text: "stream" });
  await sent.done;
  const serverElu = performance.eventLoopUtilization(elu).utilization;
  const streamSeconds = (performance.now() - started) / 1000;
  // Let the last frames arrive before asking for the report.
  await new Promise((r) => setTimeout(r, 300));
  worker.postMessage("report");
  const report = await next<{ latencies: number[]; received: number; closed: number; elu: number }>();
  await worker.terminate();

  // Samples emitted before the warm-up ended were left out in the worker.
  const measured = Float64Array.from(report.latencies).sort();
  const expected = total * VIEWPORTS;
  const serverHeap = connected.heapUsed + connected.external - (before.heapUsed + before.external);

  console.log(
    `machine load         ${loadavg()[0]!.toFixed(2)} (1-min load average; figures are noisy on a shared machine)`,
  );
  console.log(`viewports            ${VIEWPORTS} WebSocket clients on 127.0.0.1 (worker thread)`);
  console.log(
    `events               ${total} chunks at ${RATE}/s target, ${(total / streamSeconds).toFixed(0)}/s achieved`,
  );
  console.log(`delivered            ${report.received} of ${expected} frames, ${report.closed} sockets closed`);
  console.log(`latency (emit→recv)  after ${WARMUP_SECONDS}s warm-up, ${measured.length} samples`);
  console.log(`  p50                ${percentile(measured, 50).toFixed(3)} ms`);
  console.log(`  p90                ${percentile(measured, 90).toFixed(3)} ms`);
  console.log(`  p99                ${percentile(measured, 99).toFixed(3)} ms   (goal ≤ 5 ms)`);
  console.log(`  max                ${percentile(measured, 100).toFixed(3)} ms`);
  console.log(
    `event-loop busy      server ${(serverElu * 100).toFixed(0)}%, clients ${(report.elu * 100).toFixed(0)}%`,
  );
  console.log(
    `memory per viewport  ${(serverHeap / VIEWPORTS / 1024).toFixed(1)} KiB server heap+external (idle, subscribed)`,
  );
  console.log(
    `process rss          ${mib(before.rss)} → ${mib(connected.rss)} with clients (rss includes the client worker)`,
  );
  console.log(
    `ring                 ${controller.getState().headSeq - controller.getState().oldestSeq + 1} envelopes held`,
  );

  await server.close();
  await controller.dispose();
  rmSync(web, { recursive: true, force: true });
}

await main();
