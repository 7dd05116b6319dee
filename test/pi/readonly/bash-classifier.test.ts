import { describe, expect, it } from "vitest";
import { classifyBash } from "../../../src/pi/readonly/bash-classifier.ts";
import { tokenizeShell } from "../../../src/pi/readonly/shell-tokens.ts";

describe("classifyBash: commands that only read", () => {
  it.each([
    "ls -la",
    "cat src/index.ts | grep foo",
    "rg TODO src && wc -l README.md",
    "git status",
    "git -C sub log --oneline -5",
    "git diff HEAD~1 -- src",
    "git branch",
    "git branch -a",
    "git branch --contains abc123",
    "git tag -l 'v*'",
    "git config --get user.name",
    "git remote -v",
    "git stash list",
    "npm ls",
    "npm test",
    "npm run build",
    "cargo test",
    "sed -n '1,20p' file.txt",
    "find . -name '*.ts' -print",
    "grep -r x . 2>/dev/null",
    "node -v >/dev/null 2>&1",
    "echo done >&2",
    "tar -tzf archive.tgz",
    "unzip -l a.zip",
    "gzip -c file",
    "curl -s https://example.com",
    "wget -qO- https://example.com",
    "command -v rm",
    'echo "rm -rf / > x"',
    "echo 'a > b'",
    "cat <<'EOF'\nrm -rf /\necho hi > out.txt\nEOF",
    "# rm -rf /\nls",
    "printf '%s' \"$(git rev-parse HEAD)\"",
  ])("%j reads", (command) => {
    expect(classifyBash(command)).toEqual({ writes: false });
  });
});

describe("classifyBash: commands that write", () => {
  it.each([
    ["echo hi > out.txt", "redirects output to out.txt"],
    ["echo hi>out.txt", "redirects output to out.txt"],
    ["echo hi >> log", "redirects output to log"],
    ["make 2> errors.log", "redirects output to errors.log"],
    ["ls &> all.log", "redirects output to all.log"],
    ["ls >& both.log", "redirects output to both.log"],
    ["cat > notes.md <<EOF\nhello\nEOF", "redirects output to notes.md"],
    ["rm -rf build", "rm changes files"],
    ["/bin/mv a b", "mv changes files"],
    ["mkdir -p x/y", "mkdir changes files"],
    ["sudo -u root rm x", "rm changes files"],
    ["FOO=1 env -i BAR=2 touch x", "touch changes files"],
    ["timeout 5 cp a b", "cp changes files"],
    ["ls | tee out.txt", "tee writes to out.txt"],
    ["sed -i 's/a/b/' f", "sed edits files in place"],
    ["perl -pi -e 's/a/b/' f", "perl edits files in place"],
    ["git commit -m x", "git commit changes the repository"],
    ["git -C repo push", "git push changes the repository"],
    ["git checkout -b feature", "git checkout changes the repository"],
    ["git branch -D old", "git branch changes the repository"],
    ["git stash", "git stash changes the repository"],
    ["npm install left-pad", "npm install changes files"],
    ["pnpm add -D vitest", "pnpm add changes files"],
    ["pip install requests", "pip install changes files"],
    ["curl -o page.html https://example.com", "curl writes a download to disk"],
    ["curl -sSLO https://example.com/a.tgz", "curl writes a download to disk"],
    ["wget https://example.com/a.tgz", "wget writes a download to disk"],
    ["tar xzf a.tgz", "tar creates or extracts files"],
    ["tar -czf a.tgz src", "tar creates or extracts files"],
    ["unzip a.zip", "unzip extracts files"],
    ["gzip big.log", "gzip replaces files"],
    ["find . -name '*.tmp' -delete", "find -delete removes files"],
    ["find . -name x -exec rm {} \\;", "rm changes files"],
    ["ls | xargs rm", "rm changes files"],
    ["bash -c 'echo x > y'", "redirects output to y"],
    ['sh -c "rm -f a"', "rm changes files"],
    ["echo $(touch x)", "touch changes files"],
    ["echo `rm x`", "rm changes files"],
    ["diff <(sort a) <(rm b)", "rm changes files"],
    ["ls; rm x", "rm changes files"],
    ["true && (cd sub && rm x)", "rm changes files"],
    ["ls\nrm x", "rm changes files"],
    ["vim file", "vim changes files"],
  ])("%j writes (%s)", (command, reason) => {
    expect(classifyBash(command)).toEqual({ writes: true, reason });
  });
});

describe("tokenizeShell", () => {
  it("splits simple commands, strips quotes and collects redirects and substitutions", () => {
    expect(tokenizeShell(`FOO="a b" cmd 'x y' | other > out 2>&1; $(inner) && last`)).toEqual({
      commands: [["FOO=a b", "cmd", "x y"], ["other"], ["last"]],
      redirects: ["out"],
      substitutions: ["inner"],
    });
  });

  it("skips here-document bodies and comments", () => {
    expect(tokenizeShell("cat <<-EOF # note\n\tmkdir x\n\tEOF\necho done").commands).toEqual([
      ["cat"],
      ["echo", "done"],
    ]);
  });
});
