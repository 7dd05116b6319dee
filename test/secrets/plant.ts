/**
 * Planting secrets in a copy of a real Claude Code transcript, as the agent would have written them: a user
 * prompt that pastes a key, then a Bash `cat .env` whose result holds one secret of every other kind.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { plantedCases } from "../../bench/secrets-cases.ts";

export function plantSecrets(file: string): string[] {
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = lines[lines.length - 1]!;
  const cases = plantedCases().filter((c) => !c.knownMiss);
  const base = {
    isSidechain: false,
    userType: "external",
    cwd: last["cwd"],
    sessionId: last["sessionId"],
    version: last["version"],
    gitBranch: last["gitBranch"],
  };
  const [u, a, r] = [
    "11111111-1111-4111-8111-111111111111",
    "22222222-2222-4222-8222-222222222222",
    "33333333-3333-4333-8333-333333333333",
  ];
  const env = cases
    .slice(1)
    .map((c) => c.text)
    .join("\n");
  const records = [
    {
      ...base,
      parentUuid: last["uuid"],
      type: "user",
      uuid: u,
      timestamp: "2026-01-08T10:00:00.000Z",
      message: { role: "user", content: `use this key: ${cases[0]!.secret} and read .env` },
    },
    {
      ...base,
      parentUuid: u,
      type: "assistant",
      uuid: a,
      timestamp: "2026-01-08T10:00:05.000Z",
      message: {
        id: "msg_plant",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "tool_use", id: "toolu_plant1", name: "Bash", input: { command: "cat .env" } }],
        stop_reason: "tool_use",
      },
    },
    {
      ...base,
      parentUuid: a,
      type: "user",
      uuid: r,
      timestamp: "2026-01-08T10:00:06.000Z",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_plant1", content: env, is_error: false }],
      },
    },
  ];
  appendFileSync(file, `${records.map((o) => JSON.stringify(o)).join("\n")}\n`);
  return cases.map((c) => c.secret!);
}
