/**
 * A clone runs the bundle an installed cairn runs (bin/cairn.js, scripts/clone-bundle.js): built by its first run
 * after `npm ci`, rebuilt when a source changed since, the sources run when that build fails or
 * CAIRN_FROM_SOURCE=1 asks. Each case runs `bin/cairn.js` of a copy of the repository's layout (node_modules and
 * data linked) under a module hook that lists every file Node loads, so that which code ran is seen, not told.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-clone-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clone = join(dir, "clone");
for (const part of [
  "bin",
  "src",
  "scripts",
  "web",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
])
  cpSync(join(REPO, part), join(clone, part), { recursive: true });
for (const part of ["node_modules", "data"]) symlinkSync(join(REPO, part), join(clone, part));

const hook = join(dir, "loaded-hook.mjs");
writeFileSync(
  hook,
  `import { registerHooks } from "node:module";
import { appendFileSync } from "node:fs";
registerHooks({
  load(url, context, next) {
    if (url.startsWith("file:")) appendFileSync(process.env.LOADED_LOG, url + "\\n");
    return next(url, context);
  },
});
`,
);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Files Node loaded, relative to the clone. */
  loaded: string[];
}

let runs = 0;
function argsFor(args: string[], extra: Record<string, string>) {
  const log = join(dir, `loaded-${runs++}.txt`);
  writeFileSync(log, "");
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8", LOADED_LOG: log, ...extra };
  return { argv: ["--import", pathToFileURL(hook).href, join(clone, "bin", "cairn.js"), ...args], env, log };
}
const loadedFrom = (log: string): string[] =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter((u) => u.startsWith(pathToFileURL(clone).href))
    .map((u) => u.slice(pathToFileURL(clone).href.length + 1));

function cairn(args: string[], extra: Record<string, string> = {}): Run {
  const { argv, env, log } = argsFor(args, extra);
  const r = spawnSync(process.execPath, argv, { env, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded: loadedFrom(log) };
}

function cairnAsync(args: string[]): Promise<Run> {
  const { argv, env, log } = argsFor(args, {});
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr, loaded: loadedFrom(log) }));
  });
}

const ranBundle = (r: Run) =>
  r.loaded.includes("dist/bundle/cairn.js") && r.loaded.includes("dist/bundle/cli.js") && !ranSources(r);
const ranSources = (r: Run) => r.loaded.some((f) => f.startsWith("src/"));
const stamp = () => readFileSync(join(clone, "dist", "bundle", ".sources"), "utf8");
/** A moment after the bundle's stamp: a deterministic "later" for an edited file. */
const later = () => (Number(stamp().split(" ")[1]) + 60_000) / 1000;

const MAIN = join(clone, "src", "cli", "main.ts");
const SEARCH = join(clone, "src", "cli", "commands", "search.ts");

describe("bin/cairn.js in a clone", () => {
  it("builds the bundle on its first run after npm ci and runs it, then runs it without building", () => {
    expect(existsSync(join(clone, "dist"))).toBe(false);
    const first = cairn(["--help"]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^cairn: building dist\/bundle from the sources \(bundlers only.*\n$/);
    expect(first.stdout).toContain("Usage: cairn");
    expect(ranBundle(first), first.loaded.join(" ")).toBe(true);

    const second = cairn(["--help"]);
    expect(second.stderr).toBe("");
    expect(second.stdout).toBe(first.stdout);
    expect(ranBundle(second)).toBe(true);
  });

  it("rebuilds after a source is edited, and the edit shows", () => {
    writeFileSync(MAIN, readFileSync(MAIN, "utf8").replace("keeps AI coding-agent work", "keeps EDITED work"));
    utimesSync(MAIN, later(), later());
    const edited = cairn(["--help"]);
    expect(edited.status, edited.stderr).toBe(0);
    expect(edited.stderr).toMatch(/^cairn: the sources changed since dist\/bundle was built; rebuilding it .*\n$/);
    expect(edited.stdout).toContain("cairn keeps EDITED work resumable.");
    expect(ranBundle(edited)).toBe(true);
    expect(cairn(["--help"]).stderr).toBe("");
  });

  it("rebuilds after a file is only touched, or one is deleted", () => {
    const t = later();
    utimesSync(SEARCH, t, t);
    expect(cairn(["--version"]).stderr).toMatch(/rebuilding it/);
    expect(cairn(["--version"]).stderr).toBe("");
    // A deleted file leaves every remaining time as it was (the folder's own time is set back too).
    const extra = join(clone, "src", "cli", "unused-extra.ts");
    writeFileSync(extra, "export const unused = 1;\n");
    utimesSync(extra, t, t);
    utimesSync(join(clone, "src", "cli"), t, t);
    expect(cairn(["--version"]).stderr).toMatch(/rebuilding it/);
    rmSync(extra);
    utimesSync(join(clone, "src", "cli"), t, t);
    const deleted = cairn(["--version"]);
    expect(deleted.stderr).toMatch(/rebuilding it/);
    expect(deleted.stdout).toMatch(/^cairn \d/);
  });

  it("runs the sources when CAIRN_FROM_SOURCE=1 asks, without a build", () => {
    const t = later();
    utimesSync(MAIN, t, t);
    const r = cairn(["--help"], { CAIRN_FROM_SOURCE: "1" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("cairn keeps EDITED work resumable.");
    expect(r.loaded).toContain("src/cli/main.ts");
    expect(r.loaded.some((f) => f.startsWith("dist/"))).toBe(false);
    // The bundle is still stale: the next run without the variable rebuilds it.
    expect(cairn(["--help"]).stderr).toMatch(/rebuilding it/);
  });

  it("says so when a broken edit fails the build, runs the sources, and builds again once they change", () => {
    const good = readFileSync(SEARCH, "utf8");
    appendFileSync(SEARCH, "\nexport const broken = ;\n");
    utimesSync(SEARCH, later(), later());
    const broken = cairn(["--help"]);
    // --help never loads the search command's module, so the sources run it.
    expect(broken.status, broken.stderr).toBe(0);
    expect(broken.stdout).toContain("Usage: cairn");
    expect(broken.stderr).toMatch(/rebuilding it/);
    expect(broken.stderr).toMatch(/cairn: could not build dist\/bundle \(node scripts\/build-cli\.ts failed\):/);
    expect(broken.stderr).toContain("search.ts");
    expect(broken.stderr).toMatch(/cairn: running the sources instead/);
    expect(ranSources(broken)).toBe(true);
    expect(broken.loaded.some((f) => f.startsWith("dist/bundle/"))).toBe(false);

    // The same sources again: no second attempt, the same answer from the sources.
    const again = cairn(["--help"]);
    expect(again.stderr).toMatch(/^cairn: dist\/bundle is older than the sources and rebuilding it failed .*\n$/);
    expect(ranSources(again)).toBe(true);

    writeFileSync(SEARCH, good);
    utimesSync(SEARCH, later() + 60, later() + 60);
    const fixed = cairn(["--help"]);
    expect(fixed.stderr).toMatch(/^cairn: the sources changed since dist\/bundle was built; rebuilding it .*\n$/);
    expect(ranBundle(fixed)).toBe(true);
    expect(existsSync(join(clone, "dist", "bundle.failed"))).toBe(false);
  });

  it("`cairn serve` builds its web page too, and only it", () => {
    expect(existsSync(join(clone, "dist", "web"))).toBe(false);
    const r = cairn(["serve", "--help"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^cairn: building dist\/web from the sources \(bundlers only.*\n$/);
    expect(existsSync(join(clone, "dist", "web", "index.html"))).toBe(true);
    expect(existsSync(join(clone, "dist", "web", "assets", "app.js"))).toBe(true);
    expect(cairn(["serve", "--help"]).stderr).toBe("");
    const t = later();
    utimesSync(join(clone, "web", "main.tsx"), t, t);
    // A change to the page alone rebuilds the page alone.
    expect(cairn(["--version"]).stderr).toBe("");
    expect(cairn(["serve", "--help"]).stderr).toMatch(/^cairn: the sources changed since dist\/web was built; .*\n$/);
  });

  it("two runs finding the bundle stale at once both finish on a whole bundle", async () => {
    const t = later();
    utimesSync(MAIN, t, t);
    const [a, b] = await Promise.all([cairnAsync(["--help"]), cairnAsync(["--help"])]);
    for (const r of [a, b]) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("cairn keeps EDITED work resumable.");
      expect(ranBundle(r)).toBe(true);
    }
    const after = cairn(["--help"]);
    expect(after.stderr).toBe("");
    expect(after.stdout).toBe(a.stdout);
    // Each build's own folder is gone once its files moved in.
    expect(readdirSync(join(clone, "dist")).filter((f) => f.startsWith("."))).toEqual([]);
  });
});
