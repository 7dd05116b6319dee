/**
 * `cairn usage` as a person or a program runs it on hostile transcripts: a secret written as a model's name is
 * shown as its marker, escape sequences reach no terminal, a count past any model's is no usage, a wrong flag is a
 * usage error; and `cairn` says this week's spend in one line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";

const KEY = "sk-ant-api03-Xk9dP2mQ7vR4tY8wZ1aB3cD5eF6gH0jK2lM4nP6qS8uV0wX2yZ4aB6cD8eF0gH2jK4lM6nP8qS0uV2wX4yZ6aB8cD-AA";
const home = mkdtempSync(join(tmpdir(), "cairn-usage-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function line(i: number, model: string, usage: Record<string, unknown>, ts: string): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    cwd: "/work/api",
    sessionId: "11111111-2222-3333-4444-555555555555",
    version: "2.1.0",
    type: "assistant",
    timestamp: ts,
    uuid: `00000000-0000-0000-0000-00000000000${i}`,
    requestId: `req_${i}`,
    message: {
      id: `msg_${i}`,
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: "ok" }],
      usage,
    },
  });
}

const now = new Date().toISOString();
const dir = join(home, ".claude/projects/-work-api");
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, "11111111-2222-3333-4444-555555555555.jsonl"),
  `${[
    line(1, "claude-\u001b[31mred\u001b[0m", { input_tokens: 5, output_tokens: 5 }, now),
    line(2, KEY, { input_tokens: 7, output_tokens: 7 }, now),
    line(3, "claude-sonnet-4-5", { input_tokens: 1000, output_tokens: 1e300 }, now),
    line(4, "claude-sonnet-4-5", { input_tokens: 1_000_000, output_tokens: 100_000 }, now),
  ].join("\n")}\n`,
);
const env = { HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config"), TZ: "UTC" };

describe("cairn usage", () => {
  it("shows a secret as its marker and no escape sequence, and counts no impossible figure", () => {
    const run = cairn(["usage", "--by", "model"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(KEY);
    expect(run.stdout).toContain("[secret:anthropic-key:");
    expect(run.stdout).not.toContain("\u001b");
    const json = JSON.parse(cairn(["usage", "--by", "model", "--json"], { env }).stdout) as {
      totals: { input: number; output: number; cost: number };
      unpriced_models: Array<{ model: string }>;
    };
    expect(JSON.stringify(json)).not.toContain(KEY);
    // The record's 1e300 output tokens are no count; its input is.
    expect(json.totals).toMatchObject({ input: 1_001_012, output: 100_012 });
    expect(json.totals.cost).toBeCloseTo(3.003 + 1.5, 6);
    expect(json.unpriced_models).toHaveLength(2);
  });

  it("refuses a wrong grouping, zone or day with a usage error", () => {
    for (const args of [
      ["--by", "fortnight"],
      ["--timezone", "Mars/Olympus"],
      ["--since", "someday"],
    ]) {
      const run = cairn(["usage", "--no-index", ...args], { env });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^cairn usage: /);
    }
  });

  it("cairn says this week's spend and its most expensive session", () => {
    const run = cairn(["--root", join(home, ".claude")], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /this week \(from \d{4}-\d\d-\d\d\): \$4\.50 \(\+2 calls not priced\), [\d,.]+\S* tokens; most: /,
    );
  });
});
