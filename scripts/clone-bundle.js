/**
 * A clone runs the bundle an installed cairn runs (dist/bundle, scripts/build-cli.ts), not its TypeScript sources:
 * Node stripping the types of eighty modules made `--help` 3 × an empty Node start and a resume brief 15 ×
 * (docs/performance.md, "Issue 41: the clone path"). `bin/cairn.js` asks this module, in a clone only, whether the
 * bundle is as new as the sources and, when it is not (never built after `npm ci`, or sources edited or pulled
 * since), rebuilds it with the bundlers alone (Rolldown and esbuild: no `tsc`, about a second) before running it.
 *
 * Plain JavaScript, as `bin/cairn.js` is: loading a TypeScript file would start the type stripper this avoids.
 *
 * Fresh means the stamp each build writes beside its output (`.sources`: how many files and folders its inputs
 * hold, and the newest modification time among them, taken before the build read them) equals a walk of those
 * inputs now. A count catches a deleted file, a folder's time a renamed one, a file's time an edit, a pull or a
 * checkout (git writes the files it changes). The walk stats about 650 entries: 5 ms of every run's CPU
 * (docs/performance.md, "Issue 41: the clone path"), which no cheaper signal replaces (an edit in place changes
 * only the file's own time).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The stamp's file name inside each built folder. */
export const STAMP = ".sources";

/** What a clone builds, each output with the script that writes it and the inputs whose change rebuilds it. */
export const OUTPUTS = {
  bundle: {
    dir: "dist/bundle",
    script: "scripts/build-cli.ts",
    inputs: ["src", "scripts/build-cli.ts", "tsconfig.build.json", "tsconfig.json", "package-lock.json"],
  },
  /** The web page `cairn serve` serves; the web app imports types and helpers from src/ too. */
  web: {
    dir: "dist/web",
    script: "scripts/build-web.ts",
    inputs: ["src", "web", "scripts/build-web.ts", "package-lock.json"],
  },
};

/** A day: files a rebuild no longer writes stay that long, for a process started before it that loads them later. */
const KEEP_MS = 24 * 60 * 60 * 1000;

const walked = new Map();
/** Entry count and newest modification time under one input (a file or a folder); memoized for this process. */
function walk(path) {
  let found = walked.get(path);
  if (found) return found;
  found = { count: 0, newest: 0 };
  const visit = (p) => {
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return;
    found.count++;
    if (s.mtimeMs > found.newest) found.newest = s.mtimeMs;
    if (s.isDirectory()) for (const name of readdirSync(p)) visit(`${p}/${name}`);
  };
  visit(path);
  walked.set(path, found);
  return found;
}

/** The stamp of an output's inputs as they are now. */
export function sourcesStamp(root, output) {
  let count = 0;
  let newest = 0;
  for (const input of output.inputs) {
    const w = walk(join(root, input));
    count += w.count;
    newest = Math.max(newest, w.newest);
  }
  return `${count} ${newest}`;
}

const readText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/**
 * Makes what this command runs match the sources (the bundle; for `serve`, its web page too), rebuilding what is
 * out of date. False when the bundle could not be built: the caller runs the sources instead.
 */
export function cloneReady(root, argv, stderr = process.stderr) {
  if (!ensure(root, OUTPUTS.bundle, stderr)) return false;
  // A failed web build is not fatal: `cairn serve` says the page is not built, and every other view still works.
  if (argv.includes("serve")) ensure(root, OUTPUTS.web, stderr);
  return true;
}

function ensure(root, output, stderr) {
  const stamp = sourcesStamp(root, output);
  const dir = join(root, output.dir);
  if (readText(join(dir, STAMP)) === stamp) return true;
  // A build that failed on these very sources fails again: say so without spending a second on it.
  const failedAt = join(root, "dist", `${output.dir.slice("dist/".length)}.failed`);
  const failed = readText(failedAt);
  if (failed?.startsWith(`${stamp}\n`)) {
    stderr.write(
      `cairn: ${output.dir} is older than the sources and rebuilding it failed (${failedAt}); running the sources\n`,
    );
    return false;
  }
  const built = existsSync(join(dir, STAMP));
  stderr.write(
    built
      ? `cairn: the sources changed since ${output.dir} was built; rebuilding it (bundlers only, about a second)\n`
      : `cairn: building ${output.dir} from the sources (bundlers only, about a second; again only when they change)\n`,
  );
  const error = rebuild(root, output);
  if (error === null) {
    rmSync(failedAt, { force: true });
    return true;
  }
  writeFileSync(failedAt, `${stamp}\n${error}`);
  stderr.write(
    `cairn: could not build ${output.dir} (node ${output.script} failed):\n${error.trimEnd()}\n` +
      `cairn: running the sources instead; the next run tries again once they change\n`,
  );
  return false;
}

/**
 * Builds into a folder of this process's own, then moves each file into place: two processes that find the bundle
 * stale at once each build whole, and neither ever sees the other's half-written file. Returns the build's
 * error output when it failed, else null.
 */
function rebuild(root, output) {
  const name = output.dir.slice("dist/".length);
  const dist = join(root, "dist");
  mkdirSync(dist, { recursive: true });
  // Builds a killed process left behind.
  for (const entry of readdirSync(dist))
    if (entry.startsWith(`.${name}-`) && olderThan(join(dist, entry), KEEP_MS))
      rmSync(join(dist, entry), { recursive: true, force: true });
  const temp = join(dist, `.${name}-${process.pid}-${Date.now().toString(36)}`);
  // Loaded here, not imported: most runs find the bundle fresh, and loading child_process costs them 2 ms.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const run = spawnSync(process.execPath, [join(root, output.script), "--out", temp], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  if (run.status !== 0 || !existsSync(join(temp, STAMP))) {
    rmSync(temp, { recursive: true, force: true });
    return readable(run.stderr) || run.error?.message || `exit ${run.status ?? run.signal}`;
  }
  moveInto(temp, join(root, output.dir));
  rmSync(temp, { recursive: true, force: true });
  return null;
}

/**
 * The bundler's words without Node's report around them (the line that threw, the stack, the version): from the
 * first error line on, colours taken out.
 */
function readable(stderr) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what is removed
  const lines = stderr.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const first = lines.findIndex((l) => /^(\w*Error\b|\[[A-Z_]+\]|✘)/.test(l));
  const kept = lines.slice(Math.max(first, 0)).filter((l) => !/^\s+at |^Node\.js v|^\s*errors: \[|^[{}]$/.test(l));
  return kept.join("\n").trim().slice(-4000);
}

function olderThan(path, ms) {
  const s = statSync(path, { throwIfNoEntry: false });
  return s !== undefined && Date.now() - s.mtimeMs > ms;
}

/**
 * Moves a finished build's files over the current ones, each by a rename (whole or not at all): folders and
 * content-named chunks first, the entries next, the stamp last, so that a process starting meanwhile loads an
 * entry whose chunks are there. Files the new build has not (the old build's chunks) stay a day, for a process
 * started before that loads one of them later.
 */
function moveInto(from, to) {
  mkdirSync(to, { recursive: true });
  const rank = (e) => (e.isDirectory() || e.name.startsWith("chunk-") ? 0 : e.name === STAMP ? 2 : 1);
  const entries = readdirSync(from, { withFileTypes: true }).sort((a, b) => rank(a) - rank(b));
  for (const e of entries)
    if (e.isDirectory()) moveInto(join(from, e.name), join(to, e.name));
    else renameSync(join(from, e.name), join(to, e.name));
  const fresh = new Set(entries.map((e) => e.name));
  for (const name of readdirSync(to))
    if (!fresh.has(name) && olderThan(join(to, name), KEEP_MS))
      rmSync(join(to, name), { recursive: true, force: true });
}
