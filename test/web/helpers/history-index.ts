/**
 * A temporary index of the real transcripts shared with the project, built by the application layer as
 * `cairn index` builds it, and opened read-only as `cairn serve` opens it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCairn, type ReadCairn } from "../../../src/app/cairn.ts";
import { realFixturesDir } from "../../helpers/transcripts.ts";
import { sid, Work, writeWork } from "../../threads/work.ts";

export interface HistoryIndex {
  dir: string;
  db: string;
  app: ReadCairn;
  close(): void;
}

/** A Claude and a Codex session on the same rare files: one cross-agent work thread. */
export const THREAD_PAIR = { claude: sid("web-claude"), codex: sid("web-codex") };

function writeThreadPair(root: string): void {
  writeWork(
    root,
    new Work("claude", THREAD_PAIR.claude, { start: "2026-03-02T09:00:00.000Z", cwd: "/w/shop" })
      .prompt("fix the cart total")
      .read("src/cart/total.ts", "src/cart/tax-rules.ts")
      .run("npm test -- cart", "FAIL src/cart/total.test.ts", 1),
    new Work("codex", THREAD_PAIR.codex, { start: "2026-03-02T10:00:00.000Z", cwd: "/w/shop" })
      .prompt("carry on with the cart total")
      .edit("src/cart/total.ts", "src/cart/tax-rules.ts")
      .run("npm test -- cart", "ok 12 tests", 0),
  );
}

export async function buildHistoryIndex(roots: string[] = [realFixturesDir()]): Promise<HistoryIndex> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-web-history-"));
  const pair = join(dir, "transcripts");
  writeThreadPair(pair);
  roots = [...roots, pair];
  const db = join(dir, "cairn.db");
  const env = { HOME: dir, XDG_DATA_HOME: join(dir, "data") };
  const writer = createCairn({ db, env, cwd: dir, mode: "write" });
  try {
    await writer.index({ roots, embed: false, parallel: false });
  } finally {
    writer.close();
  }
  const app = createCairn({ db, env, cwd: dir });
  return {
    dir,
    db,
    app,
    close() {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
