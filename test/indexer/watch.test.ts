import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchIndex } from "../../src/indexer/watch.ts";
import { openStore } from "../../src/store/sqlite/store.ts";
import { realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits for a condition, checking often; fails with the label after the deadline. */
async function until(label: string, cond: () => boolean, ms = 5000): Promise<number> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for: ${label}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - start;
}

describe("cairn index --watch", () => {
  it("follows files appearing, growing, being rotated and deleted", async () => {
    const root = join(dir, "root");
    mkdirSync(join(root, "nested"), { recursive: true });
    const store = openStore(join(dir, "w.db"));
    const controller = new AbortController();
    const errors: unknown[] = [];
    const watching = watchIndex({ store, paths: [root], signal: controller.signal, sweepMs: 1000 }).catch((e) =>
      errors.push(e),
    );
    const lines = readFileSync(realFixture("pi/pi-mono__large-session.jsonl"), "utf8").split("\n").filter(Boolean);
    const events = () => store.counts().events;
    try {
      const file = join(root, "nested", "d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl");
      writeFileSync(file, `${lines.slice(0, 20).join("\n")}\n`);
      await until("a new file is indexed", () => events() > 0);
      const before = events();
      appendFileSync(file, `${lines.slice(20, 40).join("\n")}\n`);
      await until("appended lines are indexed", () => events() > before);
      // rotation: the file moves away and a new one takes its path
      const beforeRotation = events();
      renameSync(file, `${file}.1.jsonl`);
      writeFileSync(file, `${lines.slice(0, 1).join("\n")}\n${lines.slice(40, 60).join("\n")}\n`);
      await until(
        "the rotated file and the new one are both indexed",
        () => store.getFileState(`${file}.1.jsonl`) !== undefined && events() > beforeRotation,
      );
      unlinkSync(`${file}.1.jsonl`);
      const afterDelete = events();
      appendFileSync(file, `${lines.slice(60, 80).join("\n")}\n`);
      await until("appends after a deletion are still indexed", () => events() > afterDelete);
      expect(errors).toEqual([]);
    } finally {
      controller.abort();
      await watching;
      store.close();
    }
  });
});
