/**
 * An installed `cairn` runs the bundled command (dist/bundle, scripts/build-cli.ts), not the files tsc writes: this
 * lays the built package out as npm installs it (under node_modules) and checks the bundle indexes through its parse
 * worker, embeds with the shipped word vectors, and answers a search and a brief exactly as dist/cli/main.js does.
 * Needs `npm run build`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.ts";
import { REPO, realFixture } from "../helpers/transcripts.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8" };

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, args, { env, encoding: "utf8" });
}

describe("the bundled command", () => {
  it("ships in the package with its workers", () => {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8" }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = new Set(packed[0]!.files.map((f) => f.path));
    for (const f of ["cairn", "parse-worker", "search-worker", "pg-worker"])
      expect(files, f).toContain(`dist/bundle/${f}.js`);
  });

  it("is what an installed bin/cairn.js runs, with the same answers as the unbundled build", () => {
    expect(existsSync(join(REPO, "dist", "bundle", "cairn.js")), "npm run build first").toBe(true);
    const pkg = join(dir, "app", "node_modules", "cairn");
    mkdirSync(pkg, { recursive: true });
    for (const part of ["bin", "dist", "data", "package.json"])
      cpSync(join(REPO, part), join(pkg, part), { recursive: true });
    // Dependencies resolve from the package's own node_modules, as after `npm install`; no sources to run.
    symlinkSync(join(REPO, "node_modules"), join(pkg, "node_modules"));
    const bin = join(pkg, "bin", "cairn.js");
    const roots = ["--root", realFixture("pi"), "--root", realFixture("claude")];

    const index = { bundle: join(dir, "bundle.db"), plain: join(dir, "plain.db") };
    const indexed = run([bin, "index", ...roots, "--db", index.bundle, "--json"]);
    expect(indexed.stderr).toBe("");
    expect(indexed.status).toBe(0);
    expect(run([CLI, "index", ...roots, "--db", index.plain, "--json"]).status).toBe(0);
    const summary = JSON.parse(indexed.stdout) as { sessions: number; vectors: { embedded: number } };
    expect(summary.sessions).toBeGreaterThan(0);
    expect(summary.vectors.embedded).toBeGreaterThan(0);

    const sessions = JSON.parse(run([bin, "sessions", "--db", index.bundle, "--json"]).stdout) as {
      session_id: string;
      event_count: number;
    }[];
    const largest = sessions.reduce((a, b) => (b.event_count > a.event_count ? b : a));
    for (const args of [
      ["search", "error", "--json"],
      ["search", "failing test"],
      ["resume", largest.session_id],
      ["timeline", largest.session_id, "--json"],
    ]) {
      const bundled = run([bin, ...args, "--db", index.bundle]);
      const plain = run([CLI, ...args, "--db", index.plain]);
      expect(bundled.stderr, args.join(" ")).toBe(plain.stderr);
      expect(bundled.status, args.join(" ")).toBe(plain.status);
      expect(bundled.stdout.replaceAll(index.bundle, "DB"), args.join(" ")).toBe(
        plain.stdout.replaceAll(index.plain, "DB"),
      );
    }
  });
});
