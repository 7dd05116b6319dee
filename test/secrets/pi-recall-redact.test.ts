/**
 * pi's recall tool hands search hits to the agent: read through the app (its shaping step), their snippets leave
 * with markers, not secrets. A real Claude Code transcript with secrets planted, indexed, then searched as the
 * extension searches it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createIndexSources } from "../../src/pi/index-sources.ts";
import { formatHits } from "../../src/pi/recall/recall-tools.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { plantSecrets } from "./plant.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-pi-recall-redact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("cairn_search_history's text carries no planted secret", async () => {
  mkdirSync(join(dir, "t"));
  const file = join(dir, "t", "s.jsonl");
  copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), file);
  const planted = plantSecrets(file);
  const sources = createIndexSources({ dbPath: join(dir, "i.db"), env: { HOME: dir }, background: false });
  try {
    let shown = "";
    for (const query of ["key", "env", "token", "password", "kind:secret", "AKIA", "sk-proj"]) {
      const { hits } = await sources.recall.search({ query, limit: 50, sessionFile: file, cwd: dir });
      shown += formatHits(query, hits);
    }
    expect(shown).toContain("[secret:");
    for (const s of planted) expect(shown, s.slice(0, 12)).not.toContain(s);
  } finally {
    await sources.close();
  }
});
