/**
 * Secrets end to end through the built CLI on a copy of a real transcript with planted secrets: `cairn secrets`
 * finds them, `search kind:secret` finds their events, and export (md, html, json) and the ask pack carry no
 * planted value; `export --reveal-secrets` at a terminal does (and is refused elsewhere); `--purge` takes the values
 * out of the index.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn, cairnInTerminal } from "../helpers/cli.ts";
import { realFixture } from "../helpers/transcripts.ts";
import { plantSecrets } from "./plant.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-secrets-"));
const db = join(dir, "i.db");
const env = { HOME: dir, XDG_DATA_HOME: join(dir, "data"), CAIRN_DB: db };
let planted: string[] = [];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Which planted values a text still holds (by label index), so a failure names them. */
const leaked = (text: string) =>
  planted.filter((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));

beforeAll(() => {
  mkdirSync(join(dir, "t"));
  const file = join(dir, "t", "s.jsonl");
  copyFileSync(realFixture("claude/codemie__session-624a4a58.jsonl"), file);
  planted = plantSecrets(file);
  const r = cairn(["index", join(dir, "t"), "--db", db], { env });
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe("cairn secrets on a real transcript with planted secrets", () => {
  it("lists every planted secret by kind and fingerprint, never its value", () => {
    const r = cairn(["secrets", "--json", "--db", db], { env });
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { findings: Array<{ kind: string; session_id: string; event_id: string }> };
    const kinds = new Set(answer.findings.map((f) => f.kind));
    for (const k of [
      "openai-key",
      "anthropic-key",
      "aws-key",
      "github-token",
      "slack-token",
      "stripe-key",
      "private-key",
      "database-url",
      "basic-auth",
      "jwt",
      "bearer-token",
      "npm-token",
    ])
      expect(kinds, k).toContain(k);
    expect(answer.findings.length).toBeGreaterThanOrEqual(planted.length);
    expect(leaked(r.stdout)).toEqual([]);
    const since = cairn(["secrets", "--since", "2026-01-08T09:00:00Z", "--db", db], { env });
    expect(since.stdout).toContain("openai-key");
  }, 60_000);

  it("search kind:secret finds the prompt and the tool result", () => {
    const r = cairn(["search", "kind:secret", "--json", "--db", db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"user_message"');
    expect(r.stdout).toContain('"tool_result"');
  }, 60_000);

  it("export in every format carries no planted value; --reveal-secrets at a terminal keeps them", () => {
    for (const format of ["md", "html", "json"]) {
      const r = cairn(["export", "624a4a58", "--format", format, "--db", db], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(leaked(r.stdout), format).toEqual([]);
      expect(r.stdout).toContain("[secret:openai-key:");
    }
    const refused = cairn(["export", "624a4a58", "--format", "json", "--reveal-secrets", "--db", db], { env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/for a person at a terminal/);
    expect(leaked(refused.stdout)).toEqual([]);
    const out = join(dir, "raw.json");
    const raw = cairnInTerminal(["export", "624a4a58", "--format", "json", "--reveal-secrets", "-o", out, "--db", db], {
      env,
    });
    expect(raw.code, raw.stdout).toBe(0);
    expect(leaked(readFileSync(out, "utf8")).length).toBe(planted.length);
  }, 120_000);

  it("the ask pack (dry run) carries no planted value", () => {
    const r = cairn(["ask", "--dry-run", "--json", "which key did I paste and what is in .env", "--db", db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("[secret:");
    expect(leaked(r.stdout)).toEqual([]);
  }, 60_000);

  it("the resume brief carries no planted value", () => {
    const r = cairn(["resume", "624a4a58", "--json", "--db", db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(leaked(r.stdout)).toEqual([]);
  }, 120_000);

  it("--purge takes a session's values out of the index, and the findings stay listed", () => {
    const r = cairn(["secrets", "--purge", "624a4a58", "--db", db], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = join(dir, "purged.json");
    const raw = cairnInTerminal(["export", "624a4a58", "--format", "json", "--reveal-secrets", "-o", out, "--db", db], {
      env,
    });
    expect(raw.code, raw.stdout).toBe(0);
    expect(leaked(readFileSync(out, "utf8"))).toEqual([]);
    const search = cairn(["search", planted[0]!.slice(0, 20), "--json", "--db", db], { env });
    expect(leaked(search.stdout)).toEqual([]);
    const list = JSON.parse(cairn(["secrets", "--json", "--db", db], { env }).stdout) as { findings: unknown[] };
    expect(list.findings.length).toBeGreaterThanOrEqual(planted.length);
  }, 120_000);
});
