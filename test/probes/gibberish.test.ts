/**
 * Issue 34, "gibberish gets exit 1 and no hits on every surface": words no transcript holds, asked of an index of
 * every agent's own CLI transcripts (test/fixtures/clients) and the shared real transcripts, with
 * the evidence bundles embedded (so search is hybrid, as users get it). The CLI exits 1 with "no matches" and
 * prints nothing on stdout; --json, MCP, the web API, the page and the TUI all answer with no hits, in every mode.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realFixturesDir } from "../helpers/transcripts.ts";
import { connectCairn, type McpSession } from "../mcp/client.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { buildWeb } from "../web/helpers/chromium.ts";
import { buildIndex, type ProbeIndex, run } from "./helpers/index.ts";
import { writeClientHome } from "./helpers/planted.ts";
import { GIBBERISH } from "./helpers/queries.ts";
import { browse, SEARCH_ANSWERED, type Served, startServe } from "./helpers/serve.ts";
import { startTui } from "./helpers/tui.ts";

let index: ProbeIndex;
const MODES = ["hybrid", "lexical", "vector"] as const;
const QUERIES = [GIBBERISH, "zzzznotthere"];

beforeAll(() => {
  index = buildIndex("cairn-probe-gibberish-", writeClientHome, (home) => [home, realFixturesDir()]);
}, 180_000);
afterAll(() => index?.remove());

describe("gibberish finds nothing", () => {
  it("the index has what a real query finds, by words and by meaning", async () => {
    const r = await run(index, ["search", "node test.js", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { mode: string; hits: unknown[] };
    expect(answer.mode).toBe("hybrid");
    expect(answer.hits.length).toBeGreaterThan(0);
  });

  it("CLI: exit 1, 'no matches' on stderr, nothing on stdout; --json: no hits", async () => {
    const wrong: string[] = [];
    for (const query of QUERIES)
      for (const mode of MODES) {
        const text = await run(index, ["search", query, "--mode", mode]);
        if (text.code !== 1 || !/no matches/.test(text.stderr) || text.stdout !== "")
          wrong.push(
            `cairn search "${query}" --mode ${mode} → exit ${text.code}, ${text.stdout.length} chars on stdout: ${text.stdout.slice(0, 160)}`,
          );
        const json = await run(index, ["search", query, "--mode", mode, "--json"]);
        const hits = (JSON.parse(json.stdout) as { hits: unknown[] }).hits;
        if (json.code !== 1 || hits.length > 0)
          wrong.push(`cairn search "${query}" --mode ${mode} --json → exit ${json.code}, ${hits.length} hits`);
      }
    expect(wrong).toEqual([]);
  });

  describe("MCP", () => {
    let mcp: McpSession;
    beforeAll(async () => {
      mcp = await connectCairn(index.db, index.env);
    });
    afterAll(() => mcp?.close());

    it("search_history answers no hits in every mode", async () => {
      const wrong: string[] = [];
      for (const query of QUERIES)
        for (const mode of MODES) {
          const r = await mcp.call("search_history", { query, mode });
          const hits = (r.data["hits"] as unknown[] | undefined) ?? [];
          if (r.isError || hits.length > 0 || r.data["found"] !== 0)
            wrong.push(
              `search_history ${JSON.stringify({ query, mode })} → ${hits.length} hits, found ${String(r.data["found"])}: ${r.text.slice(0, 160)}`,
            );
        }
      expect(wrong).toEqual([]);
    });
  });

  describe("web", () => {
    let served: Served;
    beforeAll(async () => {
      buildWeb();
      served = await startServe(index);
    }, 60_000);
    afterAll(() => served?.stop());

    it("/api/history/search answers no hits in every mode", async () => {
      const wrong: string[] = [];
      for (const query of QUERIES)
        for (const mode of MODES) {
          const r = await served.api(`/api/history/search?query=${encodeURIComponent(query)}&mode=${mode}`);
          const hits = (JSON.parse(r.text) as { hits?: unknown[] }).hits ?? [];
          if (r.status !== 200 || hits.length > 0)
            wrong.push(`GET /api/history/search "${query}" ${mode} → ${r.status}, ${hits.length} hits`);
        }
      expect(wrong).toEqual([]);
    });

    it("the page's search shows its empty state and no hit", { timeout: 120_000 }, async () => {
      const web = await browse(served);
      try {
        for (const query of QUERIES) {
          const page = await web.open(`/search?q=${encodeURIComponent(query)}`, SEARCH_ANSWERED);
          expect(await page.locator(".hits .hit").count(), query).toBe(0);
          await page.locator(".empty", { hasText: "Nothing matches" }).waitFor();
          await page.close();
        }
        expect(web.errors).toEqual([]);
      } finally {
        await web.close();
      }
    });
  });

  it.skipIf(!hasTmux())(
    "TUI: the search lists no rows, by words and then by meaning",
    { timeout: 120_000 },
    async () => {
      const tui = await startTui(index);
      try {
        for (const query of QUERIES) {
          await tui.press(["/", "C-u"]);
          // Words answer first; once typing pauses, meaning answers the same text again (or says why it could not).
          // Both must list nothing.
          await tui.type(query, /Results \(\d+\) · \d+ ms · (hybrid|lexical \(meaning: )/);
          const answers = [
            ...tui.text().matchAll(new RegExp(`/ ${query}[^]*?Results \\((\\d+)\\) · \\d+ ms · (\\w+)`, "g")),
          ];
          const counts = answers.map((m) => `${m[2]}: ${m[1]}`);
          expect(counts.length, query).toBeGreaterThan(0);
          expect(
            counts.filter((c) => !c.endsWith(": 0")),
            query,
          ).toEqual([]);
          await tui.press(["Escape"]);
        }
      } finally {
        tui.kill();
      }
    },
  );
});
