import { describe, expect, it } from "vitest";
import { analyzeCommand, answersNo, checkFamilyOf, scriptFamily, shellCommandOf } from "../../src/topology/command.ts";

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
    // a here-document's command keeps what it does: the file it writes, or the program it runs
    ["cat > notes.md <<'EOF'\nhello && world\nEOF\nls", "cat > notes.md <<EOF; ls"],
    ["cd packages/tui/test && cat > /tmp/fix.sed << 'EOF'\n/0,$/{\n    N\n}\nEOF\n", "cat > /tmp/fix.sed <<EOF"],
    [
      "cat > /tmp/fix.py << 'EOF'\nimport re\nprint(1)\nEOF\npython3 /tmp/fix.py",
      "cat > /tmp/fix.py <<EOF; python3 /tmp/fix.py",
    ],
    ["python3 - <<'EOF'\nimport json\nprint(json.dumps({}))\nEOF", "python3 - <<EOF import json print(json.dumps({}))"],
    // operators keep their meaning; a trailing `|| echo …` fallback is plumbing
    [
      `find ~/.codemie/metrics -name "*.json" -type f | head -1 | xargs cat 2>/dev/null | jq -c 'keys' 2>/dev/null || echo "No metrics files found"`,
      "find ~/.codemie/metrics -name '*.json' -type f | xargs cat | jq -c keys",
    ],
    [`ls -la /r/specs 2>/dev/null || echo "specs directory does not exist"`, "ls -la /r/specs"],
    ["npm ci || npm install", "npm ci || npm install"],
    ["make test; make lint", "make test; make lint"],
    ["sleep 5 && echo Done sleeping", "sleep 5"],
    ["echo hi > out.txt", "echo hi"],
    [`git commit -m "fix: a thing"`, "git commit -m 'fix: a thing'"],
    [`cp "$(npm root -g)/x/dark.json" ~/.pi/`, `cp "$(npm root -g)/x/dark.json" ~/.pi/`],
    ["(cd web && npm run build)", "npm run build"],
    ["find . -name '*.ts' | xargs wc -l", "find . -name '*.ts' | xargs wc -l"],
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

describe("exit status of a check", () => {
  // [command, the exit status does not speak for the check, the mask is only `| tail` after a package script]
  const table: Array<[string, boolean, boolean]> = [
    ["npm run check", false, false],
    ["cd x && npm run check 2>&1", false, false],
    ["cd x && npm run check 2>&1 | tail -5", true, true],
    ["npm run build 2>&1 | tail -3", true, true],
    [`npm run check 2>&1 | grep "error TS" | wc -l`, true, false],
    ["npx tsc --noEmit | head -20", true, false],
    ["set -o pipefail; npm test | tail", false, false],
    ["npm test || echo failed", true, false],
    ["npm test; echo done", true, false],
    ["npm test || exit 1", false, false],
    ["npm test && echo ok", false, false],
    ["npm run build && npm test", false, false],
    ["bash -lc 'npm test 2>&1 | tail -3'", true, true],
    ["git status | head", false, false],
  ];
  for (const [cmd, masked, scriptTail] of table)
    it(cmd, () =>
      expect([analyzeCommand(cmd).exitMasked, analyzeCommand(cmd).scriptTail]).toEqual([masked, scriptTail]),
    );
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

describe("options that take a value stay with their option", () => {
  // [command, canonical, check family]: the value is never read as the program, a subcommand or a target
  const table: Array<[string, string, string | null]> = [
    ["timeout -s KILL 60 npm test", "npm test", "test"],
    ["timeout --kill-after 5 30 pytest -x", "pytest -x", "test"],
    ["sudo -u ci npm run build", "npm run build", "build"],
    ["nice -n 10 make test", "make test", "test"],
    ["env -u NODE_OPTIONS npx vitest run", "npx vitest run", "test"],
    ["stdbuf -o L cargo test", "cargo test", "test"],
    ["bash -o pipefail -c 'npm test | tail -5'", "npm test", "test"],
    ["bash -euo pipefail -c 'npx tsc --noEmit'", "npx tsc --noEmit", "typecheck"],
    ["npm --prefix web run build", "npm --prefix web run build", "build"],
    ["npm run -s lint", "npm run -s lint", "lint"],
    ["pnpm -C packages/app test", "pnpm -C packages/app test", "test"],
    ["make -C sub test", "make -C sub test", "test"],
    ["make -f ci.mk lint", "make -f ci.mk lint", "lint"],
    ["go -C svc test ./...", "go -C svc test ./...", "test"],
    ["cargo +nightly test", "cargo +nightly test", "test"],
    ["npx -p typescript tsc --noEmit", "npx -p typescript tsc --noEmit", "typecheck"],
    ["python -W ignore -m pytest -q", "python -W ignore -m pytest -q", "test"],
    ["uv --directory api run pytest", "uv --directory api run pytest", "test"],
    [`node -e 'console.log(1 + 1)'`, `node -e 'console.log(1 + 1)'`, null],
    [`python3 -c 'import app'`, `python3 -c 'import app'`, null],
    // `command -v` looks a program up: it does not run it
    ["command -v npm", "command -v npm", null],
  ];
  for (const [raw, canonical, family] of table)
    it(raw, () => {
      const info = analyzeCommand(raw);
      expect([info.canonical, info.family]).toEqual([canonical, family]);
    });
});

describe("a non-zero exit that only answers no", () => {
  // [command, exit status (null: failed, status unknown), only a "no" to what it asked]
  const table: Array<[string, number | null, boolean]> = [
    ["grep -rn TODO src", 1, true],
    ["rg needle", 1, true],
    ["grep -rn TODO missing-dir", 2, false],
    ["git grep foo", 1, true],
    ["diff a.txt b.txt", 1, true],
    ["test -f dist/index.js", 1, true],
    ["which pnpm", 1, true],
    ["ls missing", 2, true],
    ["find build -name '*.map'", 1, true],
    ["grep -q x a && ls b", 1, true],
    ["grep foo a.txt", null, true],
    ["sleep 5", null, true],
    // reads of a file: the file could not be read
    ["cat missing.txt", 1, false],
    ["head -20 missing.txt", 1, false],
    ["tail -n 5 missing.log", 1, false],
    ["sed -n '1,5p' missing.txt", 2, false],
    ["cat missing.txt", null, false],
    ["ls && cat notes.md", 1, false],
    ["npm test", 1, false],
  ];
  for (const [command, code, no] of table)
    it(`${command} (exit ${code})`, () => expect(answersNo(command, code)).toBe(no));
});
