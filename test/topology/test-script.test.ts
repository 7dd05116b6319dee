import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions } from "../../scripts/clients/install.ts";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { checkOutcome } from "../../src/topology/checks.ts";
import { analyzeCommand } from "../../src/topology/command.ts";
import { isTestPath } from "../../src/topology/test-script.ts";
import { REPO } from "../helpers/transcripts.ts";

describe("a test script run directly is a test check", () => {
  const tests = [
    "node test.js",
    "node --test",
    "python test_api.py",
    "python3 -u tests/api.py",
    "python -m unittest",
    "python3 -m unittest discover -s tests",
    "python manage.py test",
    "./run_tests.sh",
    "tests/smoke.sh",
    "bash test.sh",
    "sh -x ./scripts/run-tests.sh",
    "deno test",
    "deno run -A test.ts",
    "bun test",
    "bun run src/math.test.ts",
    "ruby test/foo_test.rb",
    "ruby -I lib spec/user_spec.rb",
    "go test ./...",
    "cargo test",
    "tsx tests/x.test.ts",
    "npx tsx tests/x.test.ts",
    "ts-node src/parser.spec.ts",
    "node -r ts-node/register test/parse.ts",
    "/usr/bin/node test.js",
    "uv run python tests/test_x.py",
    "perl t/basic.t",
    "cd /p && node test.js 2>&1 | tail -5",
    "bash -lc 'node test.js'",
  ];
  for (const c of tests) it(c, () => expect(analyzeCommand(c).family).toBe("test"));
});

describe("a script that is not a test stays unclassified", () => {
  const others = [
    "node server.js",
    "node latest.js",
    "python manage.py runserver",
    "python manage.py migrate",
    "python contest.py",
    "python3 attest.py",
    "python -c 'import test'",
    "node -e 'require(\"./test.js\")'",
    "python -m http.server",
    "python3 - <<'EOF'\nimport test\nEOF",
    "node test/fixtures/make-data.js",
    "python tests/testdata/gen.py",
    "./scripts/deploy.sh",
    "bash build.sh",
    "bun run dev",
    "node dist/index.js test",
    "cat test.js",
  ];
  for (const c of others) it(c, () => expect(analyzeCommand(c).family).toBeNull());
});

describe("test paths", () => {
  const table: Array<[string, boolean]> = [
    ["test.js", true],
    ["tests.py", true],
    ["test_api.py", true],
    ["test-utils.sh", true],
    ["foo_test.rb", true],
    ["foo.test.ts", true],
    ["foo.spec.ts", true],
    ["user_spec.rb", true],
    ["run_tests.sh", true],
    ["./test/math.js", true],
    ["src/__tests__/a.js", true],
    ["latest.js", false],
    ["testing.py", false],
    ["contest.py", false],
    ["specs.md/../x.js", false],
    ["test/fixtures/a.js", false],
    ["t/lib.pm", false],
  ];
  for (const [path, test] of table) it(path, () => expect(isTestPath(path)).toBe(test));
});

describe("its outcome", () => {
  const run = (output: string, failed: boolean, masked = false) =>
    checkOutcome({ family: "test", canonical: "node test.js", output, failed, known: true, masked }).status;
  it("follows the exit status", () => {
    expect(run("FAIL add(2, 2) = 0, expected 4\n", true)).toBe("fail");
    expect(run("PASS add(2, 2) = 4\n", false)).toBe("pass");
  });
  it("reads a FAIL line when a filter masks the exit status", () => {
    expect(run("FAIL add(2, 2) = 0, expected 4\n", false, true)).toBe("fail");
  });
  it("reads a FAIL line when the format keeps no exit status, and claims no pass without a report", () => {
    const unknownExit = (output: string) =>
      checkOutcome({ family: "test", canonical: "node test.js", output, failed: false, known: false, masked: false })
        .status;
    expect(unknownExit("FAIL add(2, 2) = 0, expected 4\n")).toBe("fail");
    expect(unknownExit("PASS add(2, 2) = 4\n")).toBe("unknown");
  });
});

// Every client's scripted session runs `node test.js`, fails, fixes math.js, and runs it again.
const ROOT = join(REPO, "test", "fixtures", "clients");
const newest = readdirSync(ROOT)
  .sort()
  .map((agent) => {
    const versions = readdirSync(join(ROOT, agent)).sort(compareVersions);
    return { agent, home: join(ROOT, agent, versions[versions.length - 1]!, "home") };
  });

/** Agents that keep no exit status (Open Interpreter): a run passes only by a report cairn can read. */
const NO_EXIT_STATUS = new Set(["interpreter"]);
/** Agents that keep no command output (Aider writes only that a failed run added lines to the chat). */
const NO_OUTPUT = new Set(["aider"]);

describe.each(newest)("$agent's own `node test.js` runs", ({ agent, home }) => {
  it("are test_result events, failing before the fix and passing after", () => {
    const { events } = inspectPaths([home], REPO);
    // In the order they ran: a session continued in another file (Droid's compaction) may be read first.
    const results = events
      .filter((e) => e.event_type === "test_result")
      .sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results.every((e) => e.meta["family"] === "test" && e.text.includes("`node test.js`"))).toBe(true);
    expect(results[0]!.status).toBe("fail");
    if (!NO_OUTPUT.has(agent)) expect(results[0]!.text).toMatch(/FAIL add\(2, 2\) = 0/);
    expect(results[results.length - 1]!.status).toBe(NO_EXIT_STATUS.has(agent) ? "unknown" : "pass");
  });
});
