/**
 * What `cairn index` cannot read is said, one line each naming the folder or file and why, counted in the summary,
 * and the run exits 1 — while everything else is still indexed. Agents' folders that are links to nothing or loops
 * of links, and (with the permission checks root normally skips turned back on) a folder and a transcript that
 * may not be read.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, cairn } from "../helpers/cli.ts";
import { REPO } from "../helpers/transcripts.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) {
    chmodAll(d);
    rmSync(d, { recursive: true, force: true });
  }
});
function chmodAll(d: string) {
  spawnSync("chmod", ["-R", "u+rwX", d]);
}

/** A HOME with pi's own transcript in it, as pi's CLI wrote it. */
function home(): { home: string; env: Record<string, string> } {
  const h = mkdtempSync(join(tmpdir(), "cairn-unreadable-"));
  dirs.push(h);
  cpSync(join(REPO, "test/fixtures/clients/pi/0.87.1/home"), h, { recursive: true });
  const env = { HOME: h, XDG_DATA_HOME: join(h, ".local", "share"), XDG_CONFIG_HOME: join(h, ".config") };
  return { home: h, env: { ...env, CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", PI_CODING_AGENT_DIR: "", CAIRN_DB: "" } };
}

describe("cairn index on what it cannot read", () => {
  it("an agent's folder that is a link to nothing, or a loop of links: one line each, counted, exit 1", () => {
    const { home: h, env } = home();
    mkdirSync(join(h, ".codex"));
    symlinkSync(join(h, "unmounted-drive", "sessions"), join(h, ".codex", "sessions"));
    mkdirSync(join(h, ".gemini"));
    symlinkSync(join(h, ".gemini", "tmp"), join(h, ".gemini", "tmp"));
    for (const run of [1, 2]) {
      const r = cairn(["index"], { env });
      expect(r.code, `run ${run}`).toBe(1);
      expect(r.stdout).toMatch(/^indexed 1 file .*, 2 unreadable,/);
      expect(r.stderr).toContain(
        `cannot read ${join(h, ".codex", "sessions")}: a symbolic link to something that is not there\n`,
      );
      expect(r.stderr).toContain(`cannot read ${join(h, ".gemini", "tmp")}: a loop of symbolic links\n`);
    }
    const json = cairn(["index", "--json"], { env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).errors).toHaveLength(2);
    expect(cairn(["overview"], { env }).stdout).toContain("2 files or folders could not be read");
    const sessions = JSON.parse(cairn(["sessions", "--json"], { env }).stdout) as Array<{ provider: string }>;
    expect(sessions.map((s) => s.provider)).toEqual(["pi"]);
  });

  it("a folder and a transcript it may not read: permission denied, the rest indexed, exit 1", () => {
    const { home: h, env } = home();
    const projects = join(h, ".claude", "projects");
    const locked = join(projects, "-locked-project");
    mkdirSync(locked, { recursive: true });
    writeFileSync(join(locked, "a.jsonl"), "{}\n");
    const open = join(projects, "-open-project");
    mkdirSync(open);
    const secret = join(open, "b.jsonl");
    writeFileSync(secret, '{"type":"user"}\n');
    chmodSync(locked, 0o000);
    chmodSync(secret, 0o000);
    const r = withoutRootsOverride(["index"], env);
    expect(r.stderr).toContain(`cannot read ${locked}: permission denied\n`);
    expect(r.stderr).toContain(`cannot read ${secret}: permission denied\n`);
    expect(r.stderr).not.toMatch(/EACCES|scandir|\n\s+at /);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^indexed 2 files .*, 2 unreadable,/);
    chmodAll(h);
    const sessions = JSON.parse(cairn(["sessions", "--json"], { env }).stdout) as Array<{ provider: string }>;
    expect(sessions.map((s) => s.provider)).toContain("pi");
  });
});

/**
 * Runs the CLI as the tests' user, but where that is root, without the capabilities that let root read what its
 * permissions forbid (util-linux's setpriv), so that mode 000 means what it means for everyone else.
 */
function withoutRootsOverride(args: string[], env: Record<string, string>) {
  const drop = "-dac_override,-dac_read_search";
  const argv = [CLI, ...args];
  const res =
    process.getuid?.() === 0
      ? spawnSync("setpriv", [`--inh-caps=${drop}`, `--bounding-set=${drop}`, "--", process.execPath, ...argv], {
          env: { ...process.env, ...env },
          encoding: "utf8",
        })
      : spawnSync(process.execPath, argv, { env: { ...process.env, ...env }, encoding: "utf8" });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}
