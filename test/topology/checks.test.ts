import { describe, expect, it } from "vitest";
import { type CheckRun, checkOutcome } from "../../src/topology/checks.ts";

const run = (over: Partial<CheckRun>): CheckRun => ({
  family: "check",
  canonical: "npm run check",
  output: "",
  failed: false,
  known: true,
  masked: false,
  ...over,
});

describe("check outcome", () => {
  // [what, run, status, text after the family and command]
  const table: Array<[string, CheckRun, string, string]> = [
    ["exit 0", run({ output: "ok" }), "pass", "pass"],
    [
      "exit 1",
      run({ output: "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", failed: true }),
      "fail",
      "fail, 1 error: src/a.ts",
    ],
    ["no exit status at all", run({ known: false, output: "done" }), "unknown", "unknown"],
    // piped through a filter: the exit status is the filter's, the output decides
    [
      "| tail with npm's failure footer",
      run({
        masked: true,
        output:
          "npm error workspace @x/y@0.7.29\nnpm error location /w/packages/y\nnpm error command failed\nnpm error command sh -c tsgo --noEmit\nWaiting for the debugger to disconnect...\n",
      }),
      "fail",
      "fail: npm error command failed",
    ],
    ["| grep | wc -l: a count says nothing", run({ masked: true, output: "      11\n" }), "unknown", "unknown"],
    [
      "| grep: tsc errors shown",
      run({ masked: true, output: "src/a.ts(3,1): error TS2322: Type 'x'.\n" }),
      "fail",
      "fail, 1 error: src/a.ts",
    ],
    [
      "| tail: a runner's summary",
      run({ family: "test", masked: true, output: " Tests  2 passed (2)\n" }),
      "pass",
      "pass, 0 failed, 2 passed",
    ],
    [
      "script | tail without a footer",
      run({ masked: true, scriptTail: true, output: "Waiting for the debugger to disconnect...\n" }),
      "pass",
      "pass",
    ],
    [
      "a filter's own failure is not the check's",
      run({ masked: true, failed: true, output: "" }),
      "unknown",
      "unknown",
    ],
    // counts that contradict the status give way to the error line
    [
      "biome failing before checking anything",
      run({
        family: "lint",
        canonical: "npx biome check x.js",
        failed: true,
        output:
          "check ━━━━━━\n\n  × No files were processed in the specified paths.\n\nChecked 0 files in 2ms. No fixes applied.",
      }),
      "fail",
      "fail: × No files were processed in the specified paths.",
    ],
    // a passing run's diagnostics are warnings: no failing names
    [
      "biome with a warning",
      run({
        output:
          "app/routes/api.stream.ts:18:11 lint/correctness/noUnusedVariables ━━━━\n\n  ! This variable is unused.\n\nChecked 88 files in 14ms. No fixes applied.\nFound 1 warning.",
      }),
      "pass",
      "pass, 0 errors",
    ],
  ];
  for (const [what, r, status, text] of table) {
    it(what, () => {
      const out = checkOutcome(r);
      expect(out.status).toBe(status);
      expect(out.text).toBe(`${r.family} \`${r.canonical}\` ${text}`);
    });
  }
  it("a passing biome run lists no failing files", () => {
    const out = checkOutcome(
      run({ output: "a.ts:1:1 lint/x ━━\nChecked 1 file in 1ms. No fixes applied.\nFound 1 warning." }),
    );
    expect(out.report).toMatchObject({ runner: "biome", failed: 0, failing: [], errors: [] });
  });
});
