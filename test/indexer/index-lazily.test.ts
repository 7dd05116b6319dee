import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexLazily } from "../../src/indexer/index-lazily.ts";
import { type IndexResult, indexPaths } from "../../src/indexer/indexer.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = [
  "claude/episodic-memory__large-conversation.jsonl",
  "pi/agent-history__real_sessions_pi_session-01.jsonl",
];
const timeless = ({ ms: _ms, ...r }: IndexResult) => r;

describe("an index run that finds nothing changed", () => {
  it("ends after the scan with the full indexer's result and callbacks; a grown or newly gone file is indexer work", async () => {
    const root = join(dir, "root");
    mkdirSync(root, { recursive: true });
    const paths = FILES.map((f, i) => {
      const to = join(root, `${i}-${f.split("/")[1]}`);
      cpSync(realFixture(f), to);
      return to;
    });
    const store = openStore(join(dir, "a.db"));
    try {
      const first = await indexLazily({ store, paths: [root] });
      expect(first.changed).toBe(2);
      const files: string[] = [];
      const progress: number[] = [];
      const idle = await indexLazily({
        store,
        paths: [root],
        onFile: (r) => files.push(`${r.outcome} ${r.path}`),
        onProgress: (p) => progress.push(p.filesDone),
      });
      const full = indexPaths({ store, paths: [root] });
      expect(timeless(idle)).toEqual(timeless(full));
      expect(idle).toMatchObject({ files: 2, unchanged: 2, changed: 0, events: 0, sessions: first.sessions });
      expect(files).toEqual(paths.map((p) => `unchanged ${p}`));
      expect(progress).toEqual([1, 2]);
      // A grown file and a file gone from the root are the indexer's work again.
      appendFileSync(paths[0]!, "{not json\n");
      const grown = await indexLazily({ store, paths: [root], signal: new AbortController().signal });
      expect(grown).toMatchObject({ changed: 1, unchanged: 1, problems: 1 });
      unlinkSync(paths[1]!);
      const gone = await indexLazily({ store, paths: [root] });
      expect(gone).toMatchObject({ files: 1, gone: 1, unchanged: 1 });
      // Still gone on the next run: counted as the indexer counts it, and left marked since it was first missed.
      const since = store.goneFiles();
      const again = await indexLazily({ store, paths: [root] });
      expect(timeless(again)).toEqual(timeless(indexPaths({ store, paths: [root] })));
      expect(again).toMatchObject({ files: 1, gone: 1, unchanged: 1, changed: 0 });
      expect(store.goneFiles()).toEqual(since);
    } finally {
      store.close();
    }
  });
});
