/**
 * `cairn completion bash|zsh|fish` through the built CLI, loaded into the real shells: bash's completion function
 * is called as bash calls it, fish answers `complete -C`, zsh loads the script and registers it with compdef.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-completion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scripts: Record<string, string> = {};

beforeAll(() => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = cairn(["completion", shell]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    scripts[shell] = join(dir, `cairn.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});

function sh(shell: string, script: string): string {
  const r = spawnSync(shell, ["-c", script], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", HOME: dir },
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

/** What bash offers for the words typed so far (the last one being completed). */
function bashComplete(...words: string[]): string[] {
  const line = ["cairn", ...words].map((w) => `'${w}'`).join(" ");
  const out = sh(
    "bash",
    `source '${scripts["bash"]}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length}; _cairn; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return out.split("\n").filter(Boolean);
}

function fishComplete(typed: string): string[] {
  const out = sh("fish", `source '${scripts["fish"]}'; complete -C '${typed}'`);
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t")[0]!);
}

describe("cairn completion", () => {
  it("bash: commands, a command's documented flags, and the values a flag takes", () => {
    expect(bashComplete("se")).toEqual(expect.arrayContaining(["search", "sessions", "serve"]));
    expect(bashComplete("ex")).toEqual(["export"]);
    expect(bashComplete("search", "--")).toEqual(expect.arrayContaining(["--limit", "--mode", "--json", "--db"]));
    expect(bashComplete("search", "--mode", "")).toEqual(["hybrid", "lexical", "vector"]);
    expect(bashComplete("export", "--format", "")).toEqual(["md", "html", "json"]);
    expect(bashComplete("completion", "")).toEqual(["bash", "zsh", "fish"]);
    expect(bashComplete("timeline", "--color", "")).toEqual(["auto", "always", "never"]);
  });

  it("fish: the same, as fish itself completes a command line", () => {
    expect(fishComplete("cairn ex")).toEqual(["export"]);
    expect(fishComplete("cairn search --mo")).toEqual(["--mode"]);
    expect(fishComplete("cairn search --mode ")).toEqual(["hybrid", "lexical", "vector"]);
    expect(fishComplete("cairn resume ")).toContain("verify");
  });

  it("zsh: the script loads after compinit and registers _cairn for cairn", () => {
    const out = sh(
      "zsh",
      `autoload -Uz compinit && compinit -u -d '${dir}/zcompdump' && source '${scripts["zsh"]}' && print -r -- $_comps[cairn]`,
    );
    expect(out.trim()).toBe("_cairn");
  });

  it("an unknown shell is a usage error", () => {
    const r = cairn(["completion", "powershell"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("completions are for bash, zsh and fish, not 'powershell'");
  });
});
