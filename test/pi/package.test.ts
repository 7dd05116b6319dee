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

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const piCli = join(root, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

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
function pi(agentDir: string, args: string[]): { stdout: string; stderr: string; status: number | null } {
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
  it("declares a pi manifest whose entries ship in the package and are built from src", () => {
    expect(pkg.keywords).toContain("pi-package");
    expect(pkg.pi.extensions).toEqual(["./dist/pi/index.js"]);
    for (const entry of pkg.pi.extensions) {
      const top = entry.replace(/^\.\//, "").split("/")[0] ?? "";
      expect(pkg.files).toContain(top);
      const source = entry.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
      expect(existsSync(join(root, source))).toBe(true);
    }
    for (const name of ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai"]) {
      expect(pkg.peerDependencies[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true);
      expect(pkg.devDependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
    }
    // `cairn tui` draws with pi-tui, so the CLI depends on it (pinned to the version pi ships) rather than borrowing pi's.
    expect(pkg.dependencies["@earendil-works/pi-tui"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  const built = existsSync(join(root, "dist/pi/index.js"));

  it("loads with `pi -e <package dir>` and with `pi install <path>`", () => {
    expect(built, "dist/pi/index.js is missing: run `npm run build` (npm test does it)").toBe(true);
    const scratch = mkdtempSync(join(tmpdir(), "cairn-pkg-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const agentDir = join(scratch, "agent");

    const direct = pi(agentDir, ["-e", root, "--no-session", "--mode", "json", "-p", "/notebook write plan via-e"]);
    expect(direct.stderr).not.toMatch(/Failed to load extension/);
    expect(notebookWrites(direct.stdout)).toEqual([
      expect.objectContaining({ op: "write", name: "plan", content: "via-e" }),
    ]);

    const install = pi(agentDir, ["install", root]);
    expect(install.status).toBe(0);
    expect(pi(agentDir, ["list"]).stdout).toContain(root);
    const installed = pi(agentDir, ["--no-session", "--mode", "json", "-p", "/notebook write plan installed"]);
    expect(notebookWrites(installed.stdout)).toEqual([expect.objectContaining({ content: "installed" })]);
  });
});
