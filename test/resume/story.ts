/** One small session that exercises every ledger rule, shared by the resume tests. */
import { PiSession } from "./session-builder.ts";

export const STORY_ID = "5e551011-aaaa-4bbb-8ccc-000000000001";

export const GOAL =
  "Add a --verbose flag to the CLI in src/cli.ts. Never touch the generated files under dist/. Make sure the tests stay green.";
export const CORRECTION = "no, don't use a global for verbose; pass it through the options object";
export const LATEST = "finish the README part and make the check pass";
export const CHECK_ERROR = "src/cli.ts(12,5): error TS2304: Cannot find name 'verbose'.";
export const RESOLVED_ERROR = "src/args.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.";

/** The whole story; tests cut it with `--at`. */
export function story(id = STORY_ID, cwd = "/w/app"): PiSession {
  return new PiSession(id, cwd)
    .user(GOAL)
    .read("src/cli.ts", "export function main(argv: string[]) {\n  return run(argv);\n}\n")
    .assistant("Decision: parse flags with node:util parseArgs in src/cli.ts and src/args.ts, not a hand-written loop.")
    .user("ok, go ahead with parseArgs")
    .write(
      "PLAN.md",
      "# Plan\n- [x] add the flag\n- [ ] document the flag in README.md\n- [ ] add a test for --verbose\n",
    )
    .edit("src/args.ts", "export const n = 1;", "export const n: number = '1';")
    .bash("npx tsc --noEmit", RESOLVED_ERROR, 2)
    .edit("src/args.ts", "export const n: number = '1';", "export const n = 1;")
    .bash("npx tsc --noEmit", "", 0)
    .compaction("## Goal\nverbose flag\n## Done\nparseArgs in place")
    .user(CORRECTION)
    .edit(
      "src/cli.ts",
      "return run(argv);",
      "const { values } = parseArgs({ args: argv });\n  return run(argv, verbose);",
    )
    .assistant("Decision: keep the logger in src/log.ts and call it from src/cli.ts.")
    .write("src/log.ts", "export const log = (s: string) => process.stderr.write(s);\n")
    .bash("cd /w/app && npm run check 2>&1 | tail -20", CHECK_ERROR, 2)
    .bash("npm run check", CHECK_ERROR, 2)
    .user(LATEST)
    .assistant("Decision: move the logger to src/log.ts with a level option, called from src/cli.ts.")
    .bash("npm run check 2>&1", CHECK_ERROR, 2);
}
