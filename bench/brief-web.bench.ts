/**
 * Issue 37: the resume brief of a ~2,000-event session as the web page asks for it, over HTTP from `cairn serve`
 * (the bundle an installed `cairn` runs; the scripted driver, so no SDK competes for the CPU). Two sessions: the
 * largest real pi session (pi-mono, 1,902 events) and a generated pi session of at least 2,170 events. Each round
 * starts a new server, opens the index with a small request, then times the session's timeline answer (the
 * baseline: one read of the same session), its first brief (the process's first: the tokenizer's ranks load) and
 * a second one. The TUI's Brief tab and `cairn resume` build the same brief (`src/app/brief.ts`). Goal: ≤ 500 ms.
 *
 *   npm run bench -- brief-web
 *   BRIEF_ROUNDS=N   rounds (default 5)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createCairn } from "../src/app/cairn.ts";
import { generateCorpus, realFixturesDir } from "./corpus.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(REPO, "dist/bundle/cairn.js");
const ROUNDS = Number(process.env["BRIEF_ROUNDS"] ?? 5);
const WANTED_EVENTS = 2170;

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-brief-web-"));
const db = join(dir, "cairn.db");

/** Indexes the real fixtures and a generated pi session of at least `WANTED_EVENTS` events; returns both ids. */
async function buildIndex(): Promise<Array<{ name: string; id: string; events: number }>> {
  let bytes = 1_000_000;
  for (let attempt = 0; attempt < 6; attempt++) {
    const generated = join(dir, `pi-${bytes}`);
    generateCorpus(generated, [bytes], "brief-web", "pi");
    for (const ext of ["", "-wal", "-shm"]) rmSync(db + ext, { force: true });
    const writer = createCairn({ db, env: {}, mode: "write" });
    await writer.index({ roots: [realFixturesDir(), generated], embed: false, parallel: false });
    writer.close();
    const app = createCairn({ db, env: {} });
    const pi = app
      .sessions({ limit: 100, all: true })
      .filter((s) => s.provider === "pi")
      .sort((a, b) => b.event_count - a.event_count);
    app.close();
    const made = pi.find((s) => s.source_file.startsWith(generated));
    const real = pi.find((s) => s.source_file.includes("pi-mono__large-session"));
    if (made && real && made.event_count >= WANTED_EVENTS)
      return [
        { name: "real pi (pi-mono)", id: real.session_id, events: real.event_count },
        { name: "generated pi", id: made.session_id, events: made.event_count },
      ];
    bytes = Math.ceil((bytes * WANTED_EVENTS * 1.1) / Math.max(1, made?.event_count ?? 1));
  }
  throw new Error(`could not make a pi session of ${WANTED_EVENTS} events`);
}

interface Server {
  get(path: string): Promise<number>;
  stop(): void;
}

function serve(): Promise<Server> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [CLI, "serve", "--driver", "scripted", "--script", join(REPO, "examples/live-demo.json"), "--db", db],
      { env: { ...process.env, HOME: dir } },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /Open (http:\/\/[^/\s]+)\/\?token=(\S+)/.exec(out);
      if (!url) return;
      const [, base, token] = url;
      done({
        async get(path) {
          const t0 = performance.now();
          const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
          return performance.now() - t0;
        },
        stop: () => child.kill(),
      });
    });
    child.on("exit", (code) => {
      if (!out.includes("Open http")) fail(new Error(`cairn serve exited ${code}`));
    });
  });
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`.padStart(8);

try {
  const sessions = await buildIndex();
  console.log(`brief over HTTP from cairn serve, median of ${ROUNDS} rounds, a new server per round and session`);
  console.log(
    `${"session".padEnd(20)} ${"events".padStart(6)} ${"timeline".padStart(8)} ${"brief 1st".padStart(9)} ${"brief 2nd".padStart(9)}`,
  );
  let worst = 0;
  for (const s of sessions) {
    const timeline: number[] = [];
    const first: number[] = [];
    const second: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = await serve();
      try {
        await server.get("/api/history/sessions?limit=1");
        const path = `/api/history/sessions/${encodeURIComponent(s.id)}`;
        timeline.push(await server.get(`${path}/timeline`));
        first.push(await server.get(`${path}/brief`));
        second.push(await server.get(`${path}/brief`));
      } finally {
        server.stop();
      }
    }
    worst = Math.max(worst, median(first));
    console.log(
      `${s.name.padEnd(20)} ${String(s.events).padStart(6)} ${ms(median(timeline))} ${ms(median(first)).padStart(9)} ${ms(median(second)).padStart(9)}`,
    );
  }
  console.log(
    `\ngoal ≤ 500 ms for the page's brief: slowest first brief ${worst.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
