/**
 * `unchangedIndex` (app/index-app.ts): the answer of a `cairn index` that finds nothing to do, read without the
 * store. It must give what the full path gives, and give nothing (so the full path runs) whenever there is work.
 */
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCore } from "../../src/app/core.ts";
import { type IndexApp, indexAppOf, unchangedIndex } from "../../src/app/index-app.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { TOPOLOGY_VERSION } from "../../src/topology/version.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const FILES = [
  "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
  "claude/codemie__session-624a4a58.jsonl",
];

let dir: string;
let root: string;
let db: string;
const env = () => ({ HOME: dir, XDG_DATA_HOME: join(dir, "data") });

function fullApp(): IndexApp {
  return indexAppOf(openCore({ db, env: env(), cwd: dir, mode: "write" }));
}

async function fullRun() {
  const app = fullApp();
  try {
    const run = await app.index({ roots: [root] });
    return { indexed: run.indexed!, vectors: run.vectors, problems: app.problems(200) };
  } finally {
    app.close();
  }
}

const quick = () => unchangedIndex({ db, env: env(), cwd: dir, roots: [root], problems: 200 });
const withoutMs = <T extends { indexed: { ms: number } }>(r: T) => ({ ...r, indexed: { ...r.indexed, ms: 0 } });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-unchanged-"));
  root = join(dir, "t");
  for (const f of FILES) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    copyFileSync(join(realFixturesDir(), f), join(root, f));
  }
  db = join(dir, "cairn.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a no-change index answered without the store", () => {
  it("gives nothing before the first run (no database), then what the full path gives", async () => {
    expect(quick()).toBeNull();
    await fullRun();
    const same = quick();
    expect(same).not.toBeNull();
    const full = await fullRun();
    expect(full.indexed.changed).toBe(0);
    expect(withoutMs(same!)).toEqual(withoutMs({ dbPath: db, ...full }));
    expect(same!.indexed).toMatchObject({ files: 2, unchanged: 2, gone: 0 });
    expect(same!.indexed.sessions).toBeGreaterThan(0);
    expect(same!.vectors.result.embedder).toMatch(/^static:/);
  });

  it("falls through for a new file, an appended line, a touched mtime and a deleted file", async () => {
    await fullRun();
    const file = join(root, FILES[0]!);
    copyFileSync(file, join(root, "codex", "copy-rollout.jsonl"));
    expect(quick()).toBeNull();
    expect((await fullRun()).indexed.changed).toBe(1);
    expect(quick()).not.toBeNull();

    appendFileSync(
      join(root, FILES[1]!),
      `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`,
    );
    expect(quick()).toBeNull();
    await fullRun();
    expect(quick()).not.toBeNull();

    const st = statSync(file);
    utimesSync(file, st.atime, new Date(st.mtimeMs - 5_000));
    expect(quick()).toBeNull();
    await fullRun();
    expect(quick()).not.toBeNull();

    rmSync(file);
    expect(quick()).toBeNull();
    const marked = await fullRun();
    expect(marked.indexed.gone).toBe(1);
    // Gone and marked so: nothing left to do, and the count is the full path's.
    const same = quick();
    expect(same?.indexed.gone).toBe(1);
    expect(withoutMs(same!)).toEqual(withoutMs({ dbPath: db, ...(await fullRun()) }));
  });

  it("answers for a transcript stamped in the future once the full path has read it, and falls through when it grows", async () => {
    const file = join(root, FILES[1]!);
    const st = statSync(file);
    utimesSync(file, st.atime, new Date(Date.now() + 86_400_000));
    await fullRun();
    const same = quick();
    expect(same).not.toBeNull();
    expect(withoutMs(same!)).toEqual(withoutMs({ dbPath: db, ...(await fullRun()) }));
    appendFileSync(file, `${JSON.stringify({ type: "user", message: { role: "user", content: "later" } })}\n`);
    utimesSync(file, st.atime, new Date(Date.now() + 86_400_000));
    expect(quick()).toBeNull();
    expect((await fullRun()).indexed.changed).toBe(1);
  });

  it("falls through while another writer holds the lock, and with vectors to make or the embedder changed", async () => {
    await fullRun();
    writeFileSync(`${db}.index-lock`, String(process.pid));
    expect(quick()).toBeNull();
    rmSync(`${db}.index-lock`);
    expect(quick()).not.toBeNull();

    const store = openStore(db);
    store.putSetting("embedder", JSON.stringify({ kind: "none" }));
    store.close();
    expect(quick()).toBeNull();
    const full = await fullRun();
    expect(full.vectors).toMatchObject({ ok: true, result: { reset: true, embedder: null } });
    const same = quick();
    expect(same?.vectors.result.embedder).toBeNull();
    expect(withoutMs(same!)).toEqual(withoutMs({ dbPath: db, ...(await fullRun()) }));

    const again = openStore(db);
    again.putSetting("embedder", JSON.stringify({ kind: "static" }));
    again.close();
    expect(quick()).toBeNull();
    await fullRun();
    expect(quick()).not.toBeNull();
  });

  it("falls through when the index was built without its vectors (bundles queued)", async () => {
    const app = fullApp();
    try {
      await app.index({ roots: [root], embed: false });
    } finally {
      app.close();
    }
    expect(quick()).toBeNull();
    const full = await fullRun();
    expect(full.vectors).toMatchObject({ ok: true });
    expect((full.vectors as { result: { embedded: number } }).result.embedded).toBeGreaterThan(0);
    expect(quick()).not.toBeNull();
  });

  it("falls through for a file read by an older normalizer and for a migration not applied", async () => {
    await fullRun();
    const Database = (await import("better-sqlite3")).default;
    const raw = new Database(db);
    raw.prepare("UPDATE source_files SET topology_version = topology_version - 1 WHERE path LIKE ?").run("%codex%");
    expect(quick()).toBeNull();
    raw.exec(`UPDATE source_files SET topology_version = ${TOPOLOGY_VERSION}`);
    expect(quick()).not.toBeNull();

    const last = raw.prepare("SELECT max(version) FROM schema_migrations").pluck().get() as number;
    raw.prepare("DELETE FROM schema_migrations WHERE version = ?").run(last);
    raw.close();
    expect(quick()).toBeNull();
  });
});

describe("a run with work after the look", () => {
  it("takes the look's listing when its roots are the run's, and lists again when they are not", async () => {
    await fullRun();
    appendFileSync(join(root, FILES[0]!), "\n");
    let listed: readonly string[] = [];
    const look = unchangedIndex({
      db,
      env: env(),
      cwd: dir,
      roots: [root],
      onListed: (files) => {
        listed = files;
      },
    });
    expect(look).toBeNull();
    expect(listed).toEqual(FILES.map((f) => join(root, f)).sort());
    // A transcript written after the look is this run's only if the run lists the folder itself.
    copyFileSync(join(root, FILES[0]!), join(root, "codex", "after-the-look.jsonl"));
    const app = fullApp();
    try {
      const taken = await app.index({ roots: [root], listed: { roots: [root], files: listed } });
      expect(taken.indexed).toMatchObject({ files: 2, changed: 1 });
      const other = await app.index({ roots: [root], listed: { roots: [join(root, "codex")], files: listed } });
      expect(other.indexed).toMatchObject({ files: 3, changed: 1 });
    } finally {
      app.close();
    }
  });
});
