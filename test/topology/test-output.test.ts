import { describe, expect, it } from "vitest";
import { parseTestOutput, type TestReport } from "../../src/topology/test-output.ts";

type Expect = Partial<TestReport> & { runner: TestReport["runner"] };

const table: Array<[string, string, Expect]> = [
  [
    "vitest",
    ` ✓ src/a.test.ts (3 tests) 5ms
 ❯ src/b.test.ts (2 tests | 1 failed) 7ms
   × adds > works 3ms

 FAIL  src/b.test.ts > adds > works
AssertionError: expected 1 to be 2

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 4 passed | 1 skipped (6)
   Start at  10:00:00`,
    { runner: "vitest", passed: 4, failed: 1, skipped: 1, failing: ["src/b.test.ts > adds > works"] },
  ],
  [
    "vitest all green",
    " Test Files  2 passed (2)\n      Tests  12 passed (12)",
    { runner: "vitest", passed: 12, failed: 0, failing: [] },
  ],
  [
    "jest",
    `FAIL src/math.test.js
  ● math › adds numbers

    expect(received).toBe(expected)

PASS src/other.test.js
Tests:       1 failed, 7 passed, 8 total
Test Suites: 1 failed, 1 passed, 2 total`,
    { runner: "jest", passed: 7, failed: 1, failing: ["math › adds numbers"] },
  ],
  [
    "node:test spec",
    `✔ parses (1.1ms)
✖ rejects bad input (2.3ms)
ℹ tests 2
ℹ suites 0
ℹ pass 1
ℹ fail 1
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0`,
    { runner: "node:test", passed: 1, failed: 1, failing: ["rejects bad input"] },
  ],
  [
    "node:test tap",
    "ok 1 - a\nnot ok 2 - b fails\n# tests 2\n# pass 1\n# fail 1",
    { runner: "tap", passed: 1, failed: 1, failing: ["b fails"] },
  ],
  [
    "mocha",
    `  3 passing (20ms)
  1 failing
  1 pending

  1) Array
       #indexOf():
     AssertionError: expected -1 to equal 0`,
    { runner: "mocha", passed: 3, failed: 1, skipped: 1, failing: ["Array #indexOf()"] },
  ],
  [
    "pytest",
    `FAILED tests/test_api.py::test_login - assert 401 == 200
ERROR tests/test_db.py::test_conn - ConnectionError
==== 1 failed, 10 passed, 2 skipped, 1 error in 0.52s ====`,
    {
      runner: "pytest",
      passed: 10,
      failed: 2,
      skipped: 2,
      failing: ["tests/test_api.py::test_login", "tests/test_db.py::test_conn"],
    },
  ],
  [
    "go test -v",
    `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
    sub_test.go:12: got 1 want 2
--- FAIL: TestSub (0.00s)
FAIL
FAIL	example.com/calc	0.01s`,
    { runner: "go", passed: 1, failed: 1, failing: ["TestSub"] },
  ],
  [
    "go test packages",
    "ok  \texample.com/a\t0.01s\nok  \texample.com/b\t(cached)\nFAIL\texample.com/c [build failed]",
    { runner: "go", passed: 2, failed: 1 },
  ],
  [
    "cargo test",
    `running 3 tests
test tests::adds ... ok
test tests::subs ... FAILED
test tests::skip ... ignored

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

running 2 tests
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out`,
    { runner: "cargo", passed: 3, failed: 1, skipped: 1, failing: ["tests::subs"] },
  ],
  [
    "tsc",
    `src/a.ts(12,5): error TS2304: Cannot find name 'foo'.
src/b.ts:3:1 - error TS2322: Type 'string' is not assignable to type 'number'.

Found 2 errors in 2 files.`,
    { runner: "tsc", failed: 2, failing: ["src/a.ts", "src/b.ts"] },
  ],
  [
    "eslint",
    `/repo/src/a.js
  1:10  error  'x' is defined but never used  no-unused-vars
  2:1   warning  Unexpected console statement  no-console

✖ 2 problems (1 error, 1 warning)`,
    { runner: "eslint", failed: 1, failing: ["/repo/src/a.js"] },
  ],
  [
    "biome",
    `src/a.ts:3:7 lint/suspicious/noExplicitAny ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  ✖ Unexpected any. Specify a different type.

Checked 12 files in 5ms. No fixes applied.
Found 1 error.`,
    { runner: "biome", failed: 1, failing: ["src/a.ts"] },
  ],
];

describe("test output parsers", () => {
  for (const [name, output, expected] of table) {
    it(name, () => expect(parseTestOutput(output)).toMatchObject(expected));
  }
  it("keeps the first error lines", () => {
    const r = parseTestOutput(table[0]![1]);
    expect(r?.errors).toContain("AssertionError: expected 1 to be 2");
  });
  it("reads colored output", () => {
    expect(parseTestOutput("      Tests  \u001b[1m\u001b[32m3 passed\u001b[39m\u001b[22m (3)")).toMatchObject({
      runner: "vitest",
      passed: 3,
    });
  });
  it("says nothing about prose", () => {
    expect(parseTestOutput("All good, the tests should pass now.")).toBeNull();
    expect(parseTestOutput("")).toBeNull();
  });
});
