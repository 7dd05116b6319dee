/**
 * The `cairn` command as users get it: `bin/cairn.js`, which refuses an old Node with a message before loading
 * anything that needs Node 22, runs the bundle in a packed package and in a clone (built by the clone's first run,
 * test/cli/clone-bundle.test.ts), and the TypeScript sources when asked (nothing compiled at install time).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MIN_NODE } from "../../src/cli/node-guard.ts";
import { CLI } from "../helpers/cli.ts";
import { REPO, realFixture } from "../helpers/transcripts.ts";

const BIN = join(REPO, "bin", "cairn.js");
const dir = mkdtempSync(join(tmpdir(), "cairn-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8" };

/** The machine's own Node when it is older than cairn needs (Debian's Node 20 on these machines). */
function oldNode(): string | null {
  for (const node of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(node)) continue;
    const version = execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
    const [major, minor] = version.split(".").map(Number) as [number, number];
    if (major < 22 || (major === 22 && minor < 19)) return node;
  }
  return null;
}

describe("bin/cairn.js", () => {
  const old = oldNode();
  it.runIf(old !== null)("under the machine's old Node, says what to install instead of crashing", () => {
    for (const args of [["sessions"], ["--help"], []]) {
      const res = spawnSync(old!, [BIN, ...args], { env, encoding: "utf8" });
      expect(res.status, res.stderr).toBe(1);
      expect(res.stderr).toMatch(/cairn needs Node\.js 22\.19\.0 or newer; this is Node\.js 2\d\./);
      expect(res.stderr).toMatch(/Install Node\.js 22/);
      expect(res.stdout).toBe("");
    }
  });

  it("checks the version before it imports anything (any old version, this machine or not)", () => {
    const res = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `Object.defineProperty(process.versions, "node", { value: "22.18.9" }); await import(${JSON.stringify(BIN)});`,
      ],
      { env, encoding: "utf8" },
    );
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("this is Node.js 22.18.9");
  });

  it("the CLI's own guard wants the Node version package.json's engines names", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${MIN_NODE}`);
  });

  it.runIf(old !== null)("dist/cli/main.js run directly by the old Node exits 1 with bin/cairn.js's words", () => {
    const fromBin = spawnSync(old!, [BIN, "sessions"], { env, encoding: "utf8" });
    for (const args of [["sessions", "--db", join(dir, "none.db")], ["--help"], []]) {
      const res = spawnSync(old!, [CLI, ...args], { env, encoding: "utf8" });
      expect(res.status, res.stderr).toBe(1);
      expect(res.stderr).toBe(fromBin.stderr);
      expect(res.stdout).toBe("");
    }
  });

  it("runs from the TypeScript sources in a clone that was never built, when CAIRN_FROM_SOURCE asks", () => {
    // A clone after `npm ci`: sources and dependencies, no dist/ (and no build scripts: none is needed).
    const clone = join(dir, "clone");
    for (const part of ["bin", "src", "data", "package.json"])
      cpSync(join(REPO, part), join(clone, part), { recursive: true });
    symlinkSync(join(REPO, "node_modules"), join(clone, "node_modules"));
    expect(existsSync(join(clone, "dist"))).toBe(false);
    const res = spawnSync(
      process.execPath,
      [join(clone, "bin", "cairn.js"), "--root", realFixture("pi"), "--db", join(dir, "c.db"), "--json"],
      { env: { ...env, CAIRN_FROM_SOURCE: "1" }, encoding: "utf8" },
    );
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).sessions).toBeGreaterThan(0);
    expect(existsSync(join(clone, "dist"))).toBe(false);
  });

  // npm would not run an install hook anyway: the project's .npmrc sets ignore-scripts, which skips `prepare` too.
  it("installing runs no build; packing does, and the package holds what the bin runs", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin["cairn"]).toBe("bin/cairn.js");
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(pkg.scripts[hook]).toBeUndefined();
    expect(pkg.scripts["prepack"]).toBe("npm run build");
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8" }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = new Set(packed[0]!.files.map((f) => f.path));
    for (const f of ["bin/cairn.js", "dist/cli/main.js", "dist/indexer/parse-worker.js", "package.json"])
      expect(files, f).toContain(f);
  });
});
