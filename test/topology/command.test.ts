import { describe, expect, it } from "vitest";
import { analyzeCommand, checkFamilyOf, scriptFamily, shellCommandOf } from "../../src/topology/command.ts";

describe("canonical command", () => {
  const table: Array<[string, string]> = [
    ["npm run check", "npm run check"],
    ["cd packages/coding-agent && npm run check", "npm run check"],
    ["cd /repo && npm run check 2>&1 | tail -20", "npm run check"],
    ["npm run check 2>&1 | grep -v '^../tui' | head -50", "npm run check"],
    ["  npm   test  ", "npm test"],
    ["CI=1 FORCE_COLOR=0 npx vitest run", "npx vitest run"],
    ["timeout 60 pytest -x tests/", "pytest -x tests/"],
    ["export FOO=1; cargo test", "cargo test"],
    ["bash -lc 'cd /w && go test ./...'", "go test ./..."],
    ["git add . && git commit -m 'msg'", "git add . && git commit -m msg"],
    ["cat > notes.md <<'EOF'\nhello && world\nEOF\nls", "cat && ls"],
    ["(cd web && npm run build)", "npm run build"],
    ["find . -name '*.ts' | xargs wc -l", "find . -name *.ts | xargs wc -l"],
  ];
  for (const [raw, canonical] of table) {
    it(JSON.stringify(raw), () => expect(analyzeCommand(raw).canonical).toBe(canonical));
  }
  it("groups the eight spellings of one check into one key", () => {
    const spellings = [
      "npm run check",
      "cd packages/coding-agent && npm run check",
      "npm run check 2>&1 | head -50",
      "cd /x && npm run check 2>&1 | tail -30",
      "npm run check | grep error",
      "npm run check 2>&1",
      "cd a; npm run check",
      "  npm run  check",
    ];
    expect(new Set(spellings.map((s) => analyzeCommand(s).canonical))).toEqual(new Set(["npm run check"]));
  });
});

describe("check family", () => {
  const table: Array<[string, string | null]> = [
    ["npx vitest run", "test"],
    ["vitest", "test"],
    ["npx jest --ci", "test"],
    ["node --test test/", "test"],
    ["pytest -q", "test"],
    ["python -m pytest tests", "test"],
    ["uv run pytest", "test"],
    ["go test ./...", "test"],
    ["go vet ./...", "lint"],
    ["cargo test", "test"],
    ["cargo check", "typecheck"],
    ["cargo clippy", "lint"],
    ["cargo build --release", "build"],
    ["npm test", "test"],
    ["pnpm test", "test"],
    ["yarn test:unit", "test"],
    ["npm run test:e2e", "test"],
    ["npm run typecheck", "typecheck"],
    ["npx tsc --noEmit", "typecheck"],
    ["tsc -b", "build"],
    ["npm run lint", "lint"],
    ["npx eslint src", "lint"],
    ["npx biome check .", "lint"],
    ["npx biome format --write .", null],
    ["npx prettier --check .", "lint"],
    ["npx prettier --write .", null],
    ["ruff check .", "lint"],
    ["mypy src", "typecheck"],
    ["npm run build", "build"],
    ["make test", "test"],
    ["make", "build"],
    ["npm run check", "check"],
    ["npm install", null],
    ["git status", null],
    ["ls -la", null],
    ["npx knip", "lint"],
  ];
  for (const [cmd, family] of table) {
    it(cmd, () => expect(analyzeCommand(cmd).family).toBe(family));
  }
  it("a chain is named by its most telling check", () => {
    expect(analyzeCommand("npm run build && npm test").family).toBe("test");
    expect(analyzeCommand("npm run lint && npx tsc --noEmit").family).toBe("typecheck");
  });
  it("script names", () => {
    expect(scriptFamily("test:watch")).toBe("test");
    expect(scriptFamily("lint:fix")).toBe("lint");
    expect(scriptFamily("dev")).toBeNull();
    expect(checkFamilyOf(["bunx", "vitest"])).toBe("test");
  });
});

describe("shell command of a tool call", () => {
  const table: Array<[string, unknown, string | null]> = [
    ["Bash", { command: "ls" }, "ls"],
    ["bash", { command: "npm test", timeout: 60 }, "npm test"],
    ["shell", { command: ["bash", "-lc", "rg foo"] }, "rg foo"],
    ["shell", { command: ["ls", "-la", "my dir"] }, "ls -la 'my dir'"],
    ["shell_command", { command: "pytest", workdir: "/w" }, "pytest"],
    ["exec_command", { cmd: "cargo test" }, "cargo test"],
    ["local_shell", { command: ["git", "status"] }, "git status"],
    ["Read", { file_path: "/a" }, null],
    ["write_stdin", { chars: "y\n" }, null],
  ];
  for (const [name, input, expected] of table) {
    it(`${name} ${JSON.stringify(input)}`, () => expect(shellCommandOf(name, input)).toBe(expected));
  }
});
