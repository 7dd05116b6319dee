/**
 * The transcripts a folder holds, by path: the path is a file's identity in the index (its stamps, its sessions),
 * so a folder named with a trailing separator, doubled separators or `..` must list the very strings
 * `path.join` gives, or an unchanged file would be indexed again as a new one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTranscripts } from "../../src/indexer/scan.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = join(dir, "projects");
const files = [join(root, "a.jsonl"), join(root, "-home-me", "b.jsonl"), join(root, "-home-me", "sub", "c.jsonl")];
for (const f of files) {
  mkdirSync(join(f, ".."), { recursive: true });
  writeFileSync(f, "{}\n");
}
writeFileSync(join(root, "notes.txt"), "not a transcript");

describe("findTranscripts", () => {
  it("lists the transcripts under a folder, sorted, as path.join names them", () => {
    const want = [...files].sort();
    for (const spelled of [root, `${root}/`, `${root}//`, join(root, "-home-me", ".."), `${dir}//projects/.`])
      expect(findTranscripts(spelled)).toEqual(want);
  });

  it("keeps a relative folder relative, without a leading ./", () => {
    const rel = relative(process.cwd(), root);
    expect(findTranscripts(`./${rel}`)).toEqual(files.map((f) => join(rel, relative(root, f))).sort());
  });
});
