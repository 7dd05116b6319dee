/**
 * cairn as a pi package: the manifest, and pi's own CLI loading the extension through `pi -e <package dir>` and
 * through `pi install <path>`. The manifest points at the build output, which `npm run build` and
 * `npm test` (pretest) produce.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { piCli } from "./helpers/pi-cli.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

interface PackageJson {
  keywords: string[];
  files: string[];
  pi: { extensions: string[] };
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;

/** Run pi's CLI offline with a clean environment and a temp agent dir. */
function pi(
  agentDir: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): { stdout: string; stderr: string; status: number | null } {
  const home = join(agentDir, "..", "home");
  const cwd = join(agentDir, "..", "work");
  for (const dir of [home, cwd]) mkdirSync(dir, { recursive: true });
  const result = spawnSync(process.execPath, [piCli, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
      ...extraEnv,
    },
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** The notebook entry a `/notebook write` prompt produced, from pi's JSON event stream. */
function notebookWrites(stdout: string): unknown[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string; entry?: { customType?: string; data?: unknown } })
    .filter((event) => event.type === "entry_appended" && event.entry?.customType === "cairn-notebook")
    .map((event) => event.entry?.data);
}

describe("cairn as a pi package", () => {
  it("declares a pi manifest whose entry ships in the package, in a folder of no module type", () => {
    expect(pkg.keywords).toContain("pi-package");
    expect(pkg.pi.extensions).toEqual(["./dist/cairn/index.js"]);
    expect(pkg.files).toContain("dist");
    // Built, the entry sits beside a package.json that names no module type, so that pi's loader transpiles it.
    if (existsSync(join(root, "dist/cairn/package.json"))) {
      expect(JSON.parse(readFileSync(join(root, "dist/cairn/package.json"), "utf8")).type).toBeUndefined();
    }
  });

  it("declares what pi provides as peers of any version, never as dependencies (pi's own rule)", () => {
    for (const name of [
      "@earendil-works/pi-coding-agent",
      "@earendil-works/pi-ai",
      "@earendil-works/pi-tui",
      "typebox",
    ]) {
      expect(pkg.peerDependencies[name]).toBe("*");
      expect(pkg.dependencies[name]).toBeUndefined();
    }
    for (const name of ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", "typebox"])
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true);
    // `cairn tui` draws with pi-tui: a peer that is not optional, so npm installs it with cairn.
    expect(pkg.peerDependenciesMeta["@earendil-works/pi-tui"]?.optional).not.toBe(true);
    expect(pkg.devDependencies["@earendil-works/pi-coding-agent"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  const built = existsSync(join(root, "dist/cairn/index.js"));

  it("loads with `pi -e <package dir>` and with `pi install <path>`", () => {
    expect(built, "dist/cairn/index.js is missing: run `npm run build` (npm test does it)").toBe(true);
    const scratch = mkdtempSync(join(tmpdir(), "cairn-pkg-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const agentDir = join(scratch, "agent");

    const direct = pi(agentDir, ["-e", root, "--no-session", "--mode", "json", "-p", "/notebook write plan via-e"]);
    expect(direct.stderr).not.toMatch(/Failed to load extension|Host-provided extension packages/);
    expect(notebookWrites(direct.stdout)).toEqual([
      expect.objectContaining({ op: "write", name: "plan", content: "via-e" }),
    ]);

    const install = pi(agentDir, ["install", root]);
    expect(install.status).toBe(0);
    expect(pi(agentDir, ["list"]).stdout).toContain(root);
    const installed = pi(agentDir, ["--no-session", "--mode", "json", "-p", "/notebook write plan installed"]);
    expect(notebookWrites(installed.stdout)).toEqual([expect.objectContaining({ content: "installed" })]);
  });

  it("loads through pi's loader, so its pi imports are pi's own, and leaves the index unloaded until asked", () => {
    expect(built, "dist/cairn/index.js is missing: run `npm run build` (npm test does it)").toBe(true);
    const scratch = mkdtempSync(join(tmpdir(), "cairn-pkg-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const run = pi(
      join(scratch, "agent"),
      ["-e", root, "--no-session", "--mode", "json", "-p", "/notebook write a b"],
      {
        JITI_DEBUG: "1",
      },
    );
    const loaded = `${run.stdout}\n${run.stderr}`;
    // The entry is transpiled (a native import would resolve pi to the copy in cairn's node_modules); nothing else
    // is, and the rest loads natively as one file.
    expect(loaded).toMatch(/\[(transpile|hit)\].*dist\/cairn\/index\.js/);
    expect(loaded).toMatch(/\[native\].*dist\/pi-native\/default-extension\.js/);
    expect(loaded.match(/\[transpile\].*/g) ?? []).toEqual(
      (loaded.match(/\[transpile\].*/g) ?? []).filter((line) => line.includes("dist/cairn/index.js")),
    );
    expect(loaded).not.toMatch(/index-sources/);
  });
});
