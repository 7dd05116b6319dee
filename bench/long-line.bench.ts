/**
 * One 200 MB line (a tool result the size of a build log): reading it with cairn beside `JSON.parse` of the same
 * line, in CPU time and peak memory, each in its own process. Goal (issue 12): within 2x the time of JSON.parse
 * and a peak RSS under 3x the line's size.
 * The index line runs the built CLI (`npm run build` first), so it includes the process start and the embedding.
 *   npm run bench -- long-line            (CAIRN_LONG_LINE_MB=50 for a smaller line)
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readTranscriptFile } from "../src/indexer/read-file.ts";

const MB = 1024 * 1024;

/** A pi session whose second line is one tool result of `mb` MiB of varied log text. */
function writeSession(path: string, mb: number): number {
  const fd = openSync(path, "w");
  const header = { type: "session", version: 3, id: "long-line", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" };
  writeSync(fd, `${JSON.stringify(header)}\n`);
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++)
    lines.push(
      `[${String(i).padStart(5, "0")}] compiling src/module-${(i * 7919) % 1000}.ts ok (${(i * 31) % 997} ms)`,
    );
  const block = JSON.stringify(`${lines.join("\n")}\n`).slice(1, -1);
  const head = `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"`;
  writeSync(fd, head);
  let written = head.length;
  const target = mb * MB;
  const buf = Buffer.from(block);
  while (written + buf.length < target) written += writeSync(fd, buf);
  const tail = `"}],"isError":false}}\n`;
  written += writeSync(fd, tail);
  closeSync(fd);
  return written;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Child: one measurement, printed as JSON. */
function child(mode: string, path: string): void {
  let t0 = cpuMs();
  let w0 = Date.now();
  if (mode === "json-parse") {
    // The line's text, decoded, then timed: JSON.parse alone.
    const bytes = readFileSync(path);
    const nl = bytes.indexOf(10);
    const text = bytes.toString("utf8", nl + 1, bytes.length - 1);
    t0 = cpuMs();
    w0 = Date.now();
    JSON.parse(text);
  } else if (mode === "read-decode-parse") {
    // The least any JSONL reader does: read the bytes, decode them, JSON.parse the line.
    const bytes = readFileSync(path);
    const nl = bytes.indexOf(10);
    JSON.parse(bytes.toString("utf8", nl + 1, bytes.length - 1));
  } else if (mode === "read") {
    readTranscriptFile(path, { onBatch() {} });
  }
  const out = { cpu: cpuMs() - t0, wall: Date.now() - w0, rss: process.resourceUsage().maxRSS * 1024 };
  process.stdout.write(JSON.stringify(out));
}

/**
 * `cairn index --root <file>` as a user runs it (parse worker included), its CPU time (all threads) and peak RSS
 * recorded from inside the process as it exits.
 */
function cliIndex(dir: string, path: string): { cpu: number; wall: number; rss: number } {
  const preload = join(dir, "usage.mjs");
  const out = join(dir, "usage.json");
  writeFileSync(
    preload,
    `import { writeFileSync } from "node:fs";
     import { isMainThread } from "node:worker_threads";
     if (isMainThread) process.on("exit", () => {
       const u = process.cpuUsage();
       writeFileSync(process.env.USAGE_OUT, JSON.stringify({ cpu: (u.user + u.system) / 1000, rss: process.resourceUsage().maxRSS * 1024 }));
     });`,
  );
  const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
  const started = Date.now();
  const res = spawnSync(process.execPath, [cli, "index", "--root", path, "--db", join(dir, "cli.db"), "--json"], {
    encoding: "utf8",
    env: { ...process.env, HOME: dir, USAGE_OUT: out, NODE_OPTIONS: `--import=${preload}` },
  });
  if (res.status !== 0) throw new Error(`cairn index failed: ${res.stderr}`);
  return { ...(JSON.parse(readFileSync(out, "utf8")) as { cpu: number; rss: number }), wall: Date.now() - started };
}

if (process.argv[2] === "--child") {
  child(process.argv[3]!, process.argv[4]!);
} else {
  const mb = Number(process.env["CAIRN_LONG_LINE_MB"] ?? 200);
  const dir = mkdtempSync(join(tmpdir(), "cairn-long-line-"));
  try {
    const path = join(dir, "session.jsonl");
    const size = writeSession(path, mb);
    console.log(`one line of ${(size / MB).toFixed(0)} MiB`);
    const run = (mode: string) => {
      const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", mode, path], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      if (res.status !== 0) throw new Error(`${mode} failed: ${res.stderr}`);
      return JSON.parse(res.stdout) as { cpu: number; wall: number; rss: number };
    };
    const base = run("json-parse");
    const line = (label: string, r: { cpu: number; wall: number; rss: number }) =>
      console.log(
        `${label.padEnd(28)} ${(r.cpu / 1000).toFixed(2).padStart(6)} s CPU (${(r.cpu / base.cpu).toFixed(2)}x JSON.parse)  ${(r.wall / 1000).toFixed(2).padStart(6)} s wall  peak RSS ${(r.rss / MB).toFixed(0).padStart(5)} MiB (${(r.rss / size).toFixed(2)}x the line)`,
      );
    line("JSON.parse (baseline)", base);
    line("read, decode and JSON.parse", run("read-decode-parse"));
    line("cairn read + parse", run("read"));
    line("cairn index (the real CLI)", cliIndex(dir, path));
    console.log("goal: within 2x JSON.parse's time, peak RSS under 3x the line");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
