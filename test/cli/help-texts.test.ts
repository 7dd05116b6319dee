/**
 * The help texts name every agent cairn reads, from the readers' registry (an agent added there is named here
 * with nothing typed again), and `cairn --help` names the option every command that opens the index takes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { agentName, PROVIDERS } from "../../src/readers/agents.ts";
import { defaultRoots } from "../../src/readers/roots.ts";

const dir = mkdtempSync(join(tmpdir(), "cairn-help-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const out: string[] = [];
  const io: CliIo = {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => out.push(c) },
    env,
    cwd: dir,
  };
  expect(await main(argv, io)).toBe(0);
  return out.join("");
}

/** Help text is wrapped: a name split over two lines is still named. */
const flat = (s: string) => s.replace(/\s+/g, " ");

describe("help texts name every agent", () => {
  it("index --help lists each agent's folders and the variables that move them", async () => {
    const help = await run(["index", "--help"]);
    for (const p of PROVIDERS) expect(help).toMatch(new RegExp(`^  ${p} +~/`, "m"));
    for (const r of defaultRoots({}, "~")) expect(help).toContain(r.dir);
    for (const v of ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "PI_CODING_AGENT_DIR", "COPILOT_HOME", "QWEN_HOME"])
      expect(flat(help)).toContain(v);
  });

  it.each([["inspect"], ["overview"]])("%s --help names every agent", async (command) => {
    const help = flat(await run([command, "--help"]));
    for (const p of PROVIDERS) expect(help).toContain(agentName(p));
  });

  it("search --help lists every provider: value", async () => {
    expect(await run(["search", "--help"])).toContain(`provider:${PROVIDERS.join("|")}`);
  });

  it("cairn --help lists --db and CAIRN_DB", async () => {
    const help = await run(["--help"]);
    expect(help).toMatch(/^ {2}--db PATH +the index/m);
    expect(help).toContain("$CAIRN_DB");
  });

  it("a fresh HOME with no transcripts is told every agent and every folder variable", async () => {
    const home = join(dir, "empty-home");
    const text = flat(await run([], { HOME: home, XDG_DATA_HOME: join(home, "data") }));
    expect(text).toContain("cairn found no transcripts yet.");
    for (const p of PROVIDERS) expect(text).toContain(agentName(p));
    for (const v of ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "OPENCODE_DB"])
      expect(text).toContain(v);
  });
});
