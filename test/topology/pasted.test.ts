import { describe, expect, it } from "vitest";
import { pastedSpans, typedText } from "../../src/topology/pasted.ts";
import type { SessionEvent } from "../../src/topology/types.ts";
import { jsonl, parseFile, parseText, realFixtures } from "../helpers/transcripts.ts";

const CI_LOG = `why is this happy locally but failing in ci?

Run npm run check

> check
> biome check . && npm run typecheck

app/lib/auth.server.ts:35:11 lint/suspicious/noImplicitAnyLet ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  × This variable implicitly has the any type.

    34 │     if (!res.ok) {
  > 35 │       let errorDetails;
       │           ^^^^^^^^^^^^

Checked 412 files in 301ms. No fixes applied.
Found 4 errors.
Error: Process completed with exit code 1.`;

const TRACE = `my dude, this exploded when i restarted with -r. invalid themes must NEVER explode

➜  pi-mono git:(main) ✗ npx tsx packages/coding-agent/src/cli.ts -r
Error: Invalid hex color: #000cc
    at hexToRgb (/w/pi-mono/packages/coding-agent/src/theme.ts:41:11)
    at resolveTheme (/w/pi-mono/packages/coding-agent/src/theme.ts:88:20)
    at main (/w/pi-mono/packages/coding-agent/src/cli.ts:12:3)

Node.js v23.11.0`;

describe("pasted spans", () => {
  const cases: Array<[string, string, string[], string]> = [
    ["a CI log after a question", CI_LOG, ["output"], "why is this happy locally but failing in ci?"],
    [
      "a stack trace before and after the person's words",
      TRACE,
      ["stack"],
      "my dude, this exploded when i restarted with -r. invalid themes must NEVER explode",
    ],
    [
      "a fenced block",
      "use this instead:\n```ts\nconst x = 1;\n```\nand keep the old name",
      ["code"],
      "use this instead:\nand keep the old name",
    ],
    [
      "typed prose with a path and a list stays typed",
      "please fix the login flow in app/routes/login.tsx:\n- keep the redirect\n- don't drop the session cookie\nthen run the tests",
      [],
      "please fix the login flow in app/routes/login.tsx:\n- keep the redirect\n- don't drop the session cookie\nthen run the tests",
    ],
    [
      "JSON pasted under a request",
      'the api returns this, map it to our type:\n{\n  "id": 12,\n  "name": "x",\n  "tags": ["a", "b"]\n}',
      ["json"],
      "the api returns this, map it to our type:",
    ],
  ];
  it.each(cases)("%s", (_name, text, kinds, typed) => {
    const spans = pastedSpans(text);
    expect(spans.map((s) => s.kind)).toEqual(kinds);
    expect(typedText(text, spans)).toBe(typed);
    // Spans sit on line boundaries and keep every character: typed and pasted parts add up to the message.
    for (const s of spans) {
      expect(s.start === 0 || text[s.start - 1] === "\n").toBe(true);
      expect(s.end === text.length || text[s.end - 1] === "\n").toBe(true);
    }
  });
});

/** A pi session of alternating messages. */
function session(messages: Array<["user" | "assistant", string]>): string {
  const records: unknown[] = [
    { type: "session", version: 3, id: "s1", timestamp: "2026-06-05T05:00:00.000Z", cwd: "/w" },
  ];
  messages.forEach(([role, text], i) => {
    const message =
      role === "user" ? { role, content: text } : { role, content: [{ type: "text", text }], stopReason: "stop" };
    records.push({
      type: "message",
      id: `m${i}`,
      parentId: i === 0 ? null : `m${i - 1}`,
      timestamp: `2026-06-05T05:00:${String(i).padStart(2, "0")}.000Z`,
      message,
    });
  });
  return jsonl(...records);
}

describe("pasted evidence through the normalizer", () => {
  const derivedFrom = (events: SessionEvent[], id: string, type: string) =>
    events.filter((e) => e.parent_event_id === id && e.event_type === type);

  it("a pasted CI log becomes a failing check and an error of the user's message, with the command it shows", () => {
    const p = parseText("/s/a.jsonl", session([["user", CI_LOG]]));
    const msg = p.events.find((e) => e.event_type === "user_message")!;
    expect(msg.text).toBe(CI_LOG);
    expect(msg.meta["pasted"]).toEqual([expect.objectContaining({ kind: "output" })]);
    const [check] = derivedFrom(p.events, msg.event_id, "test_result");
    expect(check).toMatchObject({ status: "fail", command: "npm run check", role: "user" });
    expect(check!.meta).toMatchObject({ pasted: true, failed: 4 });
    const [error] = derivedFrom(p.events, msg.event_id, "error");
    expect(error!.text).toMatch(/implicitly has the any type/);
    expect(p.edges).toContainEqual(
      expect.objectContaining({ src: msg.event_id, dst: `error_signature:${error!.meta["signature"]}` }),
    );
  });

  it("a pasted trace gives the thrown error, not the prompt line or the code frame; no decision is read from it", () => {
    const p = parseText("/s/a.jsonl", session([["user", TRACE]]));
    const msg = p.events.find((e) => e.event_type === "user_message")!;
    const errors = derivedFrom(p.events, msg.event_id, "error");
    expect(errors.map((e) => e.text.split("\n")[0])).toEqual(["Error: Invalid hex color: #000cc"]);
    expect(errors[0]!.command).toMatch(/^npx tsx /);
  });

  it("decisions read only what the person typed", () => {
    const pastedOnly = "```\nNo fixes applied.\nDon't use the cache, use the store instead of it.\n```";
    const p = parseText(
      "/s/a.jsonl",
      session([
        ["assistant", "I ran the linter."],
        ["user", pastedOnly],
      ]),
    );
    expect(p.events.filter((e) => e.event_type === "decision")).toEqual([]);
  });

  it("on the real transcripts, every error read from a paste has a signature and hangs off a typed message", () => {
    let n = 0;
    for (const f of realFixtures()) {
      const p = parseFile(f);
      const byId = new Map(p.events.map((e) => [e.event_id, e]));
      for (const e of p.events) {
        if (e.meta["pasted"] !== true) continue;
        n++;
        expect(byId.get(e.parent_event_id!)).toMatchObject({ event_type: "user_message", role: "user" });
        if (e.event_type === "error") expect(typeof e.meta["signature"]).toBe("string");
        // zsh's dirty-repository mark and a trace's quoted source are not errors
        expect(e.text).not.toMatch(/^➜|^\s*throw new/);
      }
    }
    expect(n).toBeGreaterThan(3);
  });
});
