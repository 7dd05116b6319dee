import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/topology/types.ts";
import { jsonl, parseFile, parseText, realFixtures } from "../helpers/transcripts.ts";

/** A pi session: user and assistant messages, and bash calls with their output and exit code. */
type Step = ["user" | "assistant", string] | ["bash", string, string, number];
function session(steps: Step[]): string {
  const records: unknown[] = [
    { type: "session", version: 3, id: "s1", timestamp: "2026-06-05T05:00:00.000Z", cwd: "/w" },
  ];
  let n = 0;
  const ts = () =>
    `2026-06-05T05:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.000Z`;
  const push = (message: unknown) => {
    records.push({ type: "message", id: `m${n}`, parentId: n === 0 ? null : `m${n - 1}`, timestamp: ts(), message });
    n++;
  };
  for (const s of steps) {
    if (s[0] === "user") push({ role: "user", content: s[1] });
    else if (s[0] === "assistant")
      push({ role: "assistant", content: [{ type: "text", text: s[1] }], stopReason: "stop" });
    else {
      const id = `c${n}`;
      push({
        role: "assistant",
        content: [{ type: "toolCall", id, name: "bash", arguments: { command: s[1] } }],
        stopReason: "toolUse",
      });
      push({
        role: "toolResult",
        toolCallId: id,
        toolName: "bash",
        content: [{ type: "text", text: s[2] }],
        isError: s[3] !== 0,
        details: { exitCode: s[3] },
      });
    }
  }
  return jsonl(...records);
}

const outcomes = (events: SessionEvent[]) => {
  const byId = new Map(events.map((e) => [e.event_id, e]));
  return events
    .filter((e) => e.event_type === "outcome")
    .map((o) => [byId.get(o.parent_event_id!)!.text, o.status, o.meta["why"]]);
};

describe("request outcomes", () => {
  const steps: Step[] = [
    ["user", "make the api tests pass"],
    ["bash", "npm test", "Tests  1 failed | 3 passed (4)", 1],
    ["bash", "npm test", "Tests  4 passed (4)", 0],
    ["assistant", "All tests pass now."],
    ["user", "now add a --json flag to the cli"],
    ["bash", "npm test", "Tests  1 failed | 4 passed (5)", 1],
    ["assistant", "I added the flag but one test fails."],
    ["user", "no, put it in the config file instead"],
    ["assistant", "Moved it to the config file."],
    ["user", "it still doesn't work when i run it"],
    ["assistant", "Looking."],
    ["user", "ok forget it, what time is it in tokyo?"],
  ];

  it("each request ends done, failed, superseded or abandoned, judged when the next one arrives", () => {
    const p = parseText("/s/a.jsonl", session(steps));
    expect(outcomes(p.events)).toEqual([
      ["make the api tests pass", "done", "a check passed last"],
      ["now add a --json flag to the cli", "superseded", "the user corrected it"],
      ["no, put it in the config file instead", "failed", "the user reported a failure"],
      ["it still doesn't work when i run it", "abandoned", "the user moved on before any work"],
    ]);
    // the last request has no outcome yet; every outcome hangs off its request and cites its evidence
    for (const o of p.events.filter((e) => e.event_type === "outcome")) {
      expect(p.edges).toContainEqual(
        expect.objectContaining({ src: o.event_id, dst: o.parent_event_id, edge_type: "derived_from" }),
      );
      expect(p.edges.some((e) => e.src === o.event_id && e.edge_type === "evidence")).toBe(true);
    }
  });

  it("are the same in one batch or several", () => {
    const whole = parseText("/s/a.jsonl", session(steps)).events.filter((e) => e.event_type === "outcome");
    for (const splits of [[3], [2, 6, 9], [1, 4, 7, 10, 13, 16]]) {
      const pieces = parseText("/s/a.jsonl", session(steps), splits).events.filter((e) => e.event_type === "outcome");
      expect(pieces).toEqual(whole);
    }
  });

  it("on the real transcripts every typed request but the last of a session has one outcome", () => {
    for (const f of realFixtures()) {
      const p = parseFile(f);
      const requests = p.events.filter(
        (e) => e.event_type === "user_message" && e.role === "user" && !/^\/[\w:.-]*$/.test(e.text.trim()),
      );
      const outs = p.events.filter((e) => e.event_type === "outcome");
      expect(new Set(outs.map((o) => o.parent_event_id)).size).toBe(outs.length);
      if (requests.length > 0) expect(outs.length, f).toBe(requests.length - 1);
    }
  });

  it("a failure the user reports about something the request never named is a new problem, not its outcome", () => {
    const p = parseText(
      "/s/c.jsonl",
      session([
        ["user", "ci fails the knip audit: unused dependencies"],
        ["bash", "npx knip", "Unused dependencies (1) auth0", 1],
        ["bash", "npx knip", "✂️  Excellent, Knip found no issues.", 0],
        ["assistant", "Knip runs clean."],
        ["user", "something broke streaming :/ events aren't reaching the browser"],
        ["bash", "npm run typecheck", "Found 0 errors.", 0],
        ["assistant", "Fixed the delegation, typecheck passes."],
        ["user", "the issue is the individual token streaming, the final message was fine"],
        ["assistant", "Looking at the token events."],
        ["user", "ok"],
      ]),
    );
    expect(outcomes(p.events)).toEqual([
      // "streaming" and "browser" are not in the knip request, and its own check passed last
      ["ci fails the knip audit: unused dependencies", "done", "a check passed last"],
      // the user says again what the problem is: the fix did not solve it
      ["something broke streaming :/ events aren't reaching the browser", "failed", "the user reported a failure"],
      [
        "the issue is the individual token streaming, the final message was fine",
        "abandoned",
        "the user moved on before any work",
      ],
    ]);
  });

  it("a failure the user pastes is cited by the failed outcome beside their message", () => {
    const report = [
      "my dude, this exploded when i restarted",
      "",
      "Error: Invalid hex color: #000cc",
      "    at parseColor (/w/src/theme/theme.ts:433:10)",
      "    at loadTheme (/w/src/theme/theme.ts:120:5)",
    ].join("\n");
    const p = parseText(
      "/s/d.jsonl",
      session([
        ["user", "create a custom theme and open it"],
        ["bash", "code ~/.pi/themes/custom.json", "", 0],
        ["assistant", "Done, it is open."],
        ["user", report],
        ["assistant", "Looking."],
        ["user", "ok"],
      ]),
    );
    const outcome = p.events.find((e) => e.event_type === "outcome" && e.status === "failed")!;
    const evidence = outcome.meta["evidence"] as string[];
    const byId = new Map(p.events.map((e) => [e.event_id, e]));
    expect(byId.get(evidence[0]!)!.text).toBe(report);
    const pasted = byId.get(evidence[1]!)!;
    expect(pasted.event_type).toBe("error");
    expect(pasted.text).toContain("Invalid hex color: #000cc");
    expect(pasted.parent_event_id).toBe(evidence[0]);
  });

  it("a call the user declined is their choice, not a failure of the work", () => {
    const declined = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
    const p = parseText(
      "/s/e.jsonl",
      session([
        ["user", "clean up the old build output"],
        ["bash", "rm -rf build", declined, 1],
        ["assistant", "Understood, I left build/ as it is."],
        ["user", "what else is in the repo root?"],
        ["assistant", "README, src and package.json."],
        ["user", "ok"],
      ]),
    );
    const [first] = outcomes(p.events);
    expect(first![0]).toBe("clean up the old build output");
    expect(first![1]).not.toBe("failed");
    // the call still failed, as it says: its error stays
    expect(p.events.some((e) => e.event_type === "error" && e.text.includes("doesn't want to proceed"))).toBe(true);
  });

  it("the user's own word that it worked outranks the last failed call, unless they add a 'but'", () => {
    const p = parseText(
      "/s/b.jsonl",
      session([
        ["user", "fix the token streaming"],
        ["bash", "grep -n stream src/chat.ts", "grep: src/chat.ts: No such file or directory", 2],
        ["user", "it seems to work. let's get this committed"],
        ["bash", "git commit -am fix", "[main 1a2b3c4] fix", 0],
        ["assistant", "Committed."],
        ["user", "it works but the colors are wrong"],
        ["assistant", "Looking at the colors."],
        ["user", "ok"],
      ]),
    );
    expect(outcomes(p.events)).toEqual([
      ["fix the token streaming", "done", "the user confirmed it worked"],
      ["it seems to work. let's get this committed", "done", "the agent reported success"],
      ["it works but the colors are wrong", "abandoned", "the user moved on before any work"],
    ]);
  });

  it("an ask for information is done once answered after looking around; a change nobody made is not", () => {
    const p = parseText(
      "/s/c.jsonl",
      session([
        ["user", "TASK-B: list the files of the project."],
        ["bash", "ls", "NOTES.md\nmath.js\ntest.js", 0],
        ["assistant", "The project has math.js, test.js and NOTES.md."],
        ["user", "fix the rounding in math.js"],
        ["bash", "cat math.js", "function add(a, b) { return a + b; }", 0],
        ["assistant", "I looked at math.js."],
        ["user", "ok"],
      ]),
    );
    expect(outcomes(p.events)).toEqual([
      ["TASK-B: list the files of the project.", "done", "answered"],
      // It ran `cat`: work began, no change was made.
      ["fix the rounding in math.js", "abandoned", "the user moved on before any change"],
    ]);
  });
});
