/**
 * `cairn export` through the built CLI: a real session as Markdown, HTML and JSON, a work thread merged by time,
 * the HTML opened in Chromium (it asks for nothing: no request but the document itself), and misuse.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { sid, Work, writeWork } from "../threads/work.ts";
import { launchChromium } from "../web/helpers/chromium.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "cairn.db");
const CODEX = "codex/localpush__rollout-2026-02-23T12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl";
const SESSION = "019c8a53-a0dd-7130-bcd7-95445d84846a";

const ok = (args: string[]) => {
  const r = cairn(args);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
};

type Obj = Record<string, unknown>;

beforeAll(() => {
  const root = join(dir, "transcripts");
  const auth = ["src/auth/token.ts", "src/auth/refresh.ts"];
  writeWork(
    root,
    new Work("claude", sid("a"), { start: "2026-01-01T10:00:00Z", branch: "feat-auth" })
      .prompt("fix the token refresh")
      .edit(...auth)
      .test(1),
    new Work("codex", sid("b"), { start: "2026-01-02T10:00:02Z", branch: "feat-auth" })
      .prompt("review the token refresh")
      .read(...auth, "package.json"),
  );
  ok(["index", "--root", root, "--root", realFixture(CODEX), "--db", db, "--json"]);
});

describe("cairn export", () => {
  it("--format json holds the session and every event of its timeline, in order", () => {
    const doc = JSON.parse(ok(["export", SESSION.slice(0, 8), "--format", "json", "--db", db])) as Obj;
    expect(doc["kind"]).toBe("session");
    expect(doc["id"]).toBe(SESSION);
    const timeline = JSON.parse(ok(["timeline", SESSION, "--all", "--json", "--db", db])) as Obj;
    const session = timeline["session"] as Obj;
    const events = doc["events"] as Obj[];
    expect(events.length).toBe(session["event_count"]);
    expect(events.map((e) => e["ordinal"])).toEqual(events.map((_, i) => i));
  });

  it("--format md: messages as written, tool calls folded, every cited event resolvable", () => {
    const md = ok(["export", SESSION, "--db", db]);
    expect(md.startsWith("# ")).toBe(true);
    expect(md).toContain("<details>");
    expect(md.split("<details>").length).toBe(md.split("</details>").length);
    const cited = [...md.matchAll(/\[e:([0-9a-f]+)\]/g)].map((m) => m[1]!);
    expect(cited.length).toBeGreaterThan(10);
    for (const id of [cited[0]!, cited[Math.floor(cited.length / 2)]!, cited.at(-1)!])
      expect(JSON.parse(ok(["show", id, "--json", "--db", db])).event.event_id).toBe(id);
    // A fence is longer than any run of backticks inside it: no transcript text closes a code block early.
    let open: string | null = null;
    let blocks = 0;
    for (const line of md.split("\n")) {
      const fence = /^`{3,}$/.test(line) ? line : null;
      if (fence === null) continue;
      if (open === null) {
        open = fence;
        blocks++;
      } else if (fence.length >= open.length) open = null;
    }
    expect(open).toBeNull();
    expect(blocks).toBeGreaterThan(10);
  });

  it("a thread: its sessions merged by time, each tagged, with a date line where the day changes", () => {
    const threads = (JSON.parse(ok(["threads", "--json", "--db", db])) as { threads: Obj[] }).threads;
    const thread = threads.find((t) => (t["sessions"] as Obj[]).length === 2)!;
    const md = ok(["export", String(thread["thread_id"]), "--db", db]);
    expect(md).toMatch(/^# Thread /);
    expect(md).toContain("s1 · claude");
    expect(md).toContain("s2 · codex");
    expect(md.indexOf("## 2026-01-01")).toBeGreaterThan(0);
    expect(md.indexOf("## 2026-01-02")).toBeGreaterThan(md.indexOf("## 2026-01-01"));
    expect(md.indexOf("fix the token refresh")).toBeLessThan(md.indexOf("review the token refresh"));
  });

  it("--format html is one file Chromium shows without a single request of its own", async () => {
    const file = join(dir, "session.html");
    const r = cairn(["export", SESSION, "--format", "html", "--output", file, "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(file);
    const html = readFileSync(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(|@import/i);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on("request", (req) => requests.push(req.url()));
      await page.goto(`file://${file}`);
      await page.waitForLoadState("load");
      expect(requests).toEqual([`file://${file}`]);
      expect(await page.locator("h1").textContent()).toBeTruthy();
      const folded = page.locator("details").first();
      expect(await folded.getAttribute("open")).toBeNull();
      expect(await page.locator("details").count()).toBeGreaterThan(5);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("misuse: a wrong format is a usage error (exit 2, one line); an unknown id is exit 1, as JSON with --json", () => {
    const bad = cairn(["export", SESSION, "--format", "pdf", "--db", db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(2);
    expect(bad.stderr).toContain("--format is md, html, json");
    const missing = cairn(["export", "zzzzzz", "--db", db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no session or thread matches 'zzzzzz'");
    const asJson = cairn(["export", "zzzzzz", "--json", "--db", db]);
    expect(asJson.code).toBe(1);
    expect((JSON.parse(asJson.stdout) as { error: Obj }).error["code"]).toBe("not_found");
  });

  it("--output it cannot write: one line saying what and where, exit 1, and no file or half-file left", () => {
    const out = join(dir, "out");
    mkdirSync(out);
    const cases: Array<[string, RegExp]> = [
      [join(out, "missing", "s.md"), /cannot write .*s\.md: the folder .*missing does not exist/],
      ["/dev/full", /cannot write \/dev\/full: no space left on the device/],
      [out, /cannot write .*out: it is a folder/],
    ];
    for (const [path, said] of cases) {
      const r = cairn(["export", SESSION, "--output", path, "--db", db]);
      expect(r.code, path).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines[0]).toMatch(said);
      expect(lines.slice(1)).toEqual([expect.stringMatching(/^hint: /)]);
      expect(r.stderr).not.toMatch(/ENOENT|ENOSPC|EISDIR|\n\s+at /);
    }
    expect(readdirSync(out)).toEqual([]);
    // a written file replaces the old one whole, and nothing else is left beside it
    writeFileSync(join(out, "s.md"), "old");
    expect(cairn(["export", SESSION, "--output", join(out, "s.md"), "--db", db]).code).toBe(0);
    expect(readdirSync(out)).toEqual(["s.md"]);
    expect(readFileSync(join(out, "s.md"), "utf8")).toMatch(/^# /);
  });
});
