/** The fixed name rules and the frequency limit, table-driven. */
import { describe, expect, it } from "vitest";
import { isDefaultBranch, isGenericSignature, isUbiquitousFile } from "../../src/threads/names.ts";
import { commonLimit, MAX_KEY_SESSIONS } from "../../src/threads/rarity.ts";
import { isSpecificSignature } from "../../src/threads/specific.ts";

describe("name rules", () => {
  it.each([
    ["/w/app/package.json", true],
    ["/w/app/packages/core/package.json", true],
    ["/w/app/package-lock.json", true],
    ["/w/app/yarn.lock", true],
    ["/w/app/pnpm-lock.yaml", true],
    ["/w/app/Cargo.lock", true],
    ["/w/app/tsconfig.json", true],
    ["/w/app/tsconfig.build.json", true],
    ["/w/app/README.md", true],
    ["/w/app/docs/readme.txt", true],
    ["/w/app/CHANGELOG.md", true],
    ["/w/app/LICENSE", true],
    ["/w/app/AGENTS.md", true],
    ["/w/app/CLAUDE.md", true],
    ["/w/app/.gitignore", true],
    ["/w/app/.env.local", true],
    ["/w/app/vitest.config.ts", true],
    ["/w/app/.git/COMMIT_EDITMSG", true],
    ["/tmp/out.txt", true],
    ["/dev/null", true],
    ["/w/app/src/auth/token.ts", false],
    ["/w/app/src/package-json.ts", false],
    ["/w/app/docs/threads.md", false],
    ["/tmp/project/src/main.ts", false],
    ["src/auth/token.ts", true],
    ["~/notes/plan.md", false],
  ])("%s ubiquitous: %s", (path, expected) => {
    expect(isUbiquitousFile(path)).toBe(expected);
  });

  it.each([
    ["main", true],
    ["master", true],
    ["Develop", true],
    ["HEAD", true],
    ["feat-auth", false],
    ["fix/token-refresh", false],
  ])("branch %s is a default: %s", (name, expected) => {
    expect(isDefaultBranch(name)).toBe(expected);
  });

  it.each([
    ["Command exited with code N", true],
    ["Exit code N", true],
    ["bash failed", true],
    ["Error: Command failed: npm test", true],
    ["npm ERR! code ELIFECYCLE", true],
    ["FAIL", true],
    ["File has not been read yet. Read it first before writing to it.", true],
    ["The user doesn't want to proceed with this tool use.", true],
    ["error", true],
    ["token.ts(N,N): error TSN: Type 'string' is not assignable to type 'number'.", false],
    ["FAIL auth.test.ts > refreshes the token", false],
    ["Error: Cannot find module 'zod'", false],
    ["error: failed to push some refs to 'origin'", false],
    ["N.N npm error", true],
    ["error TSN", true],
    ["npm error code ERESOLVE", true],
    ['"status": "error",', true],
    ["bash: pytest: command not found", true],
    ["cat: /etc/shadow: Permission denied", true],
    [
      "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.",
      true,
    ],
    ["cat: missing.txt: No such file or directory", false],
  ])("signature %s is generic: %s", (sig, expected) => {
    expect(isGenericSignature(sig)).toBe(expected);
  });

  it.each([
    ["token.ts(N,N): error TSN: Type 'string' is not assignable to type 'number'.", true],
    ["FAIL auth.test.ts > refreshes the token", true],
    ["TypeError: Cannot read properties of undefined (reading 'userId')", true],
    ["NameError: name 'load_config' is not defined", true],
    ["Error: Cannot find module 'zod'", false],
    ["error: failed to push some refs to 'origin'", false],
  ])("signature %s names a file, symbol or test: %s", (sig, expected) => {
    expect(isSpecificSignature(sig)).toBe(expected);
  });
});

describe("frequency limit", () => {
  it("a minority of the sessions, at least three, at most the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 8, 10, 20, 24, 100, 4500].map(commonLimit)).toEqual([
      3, 3, 3, 3, 3, 3, 4, 5, 10, 12, 12, 12,
    ]);
    expect(MAX_KEY_SESSIONS).toBe(12);
  });
});
