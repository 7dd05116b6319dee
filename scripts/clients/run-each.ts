/**
 * The command line both refresh scripts take: agent names (default: `all`) and `--version V`. Each agent is
 * refreshed in turn; one that fails is reported and the others still run; the exit code says whether any failed.
 */
export async function refreshEach(
  argv: readonly string[],
  all: readonly string[],
  refresh: (name: string, version: string | undefined) => Promise<void>,
): Promise<void> {
  const vi = argv.indexOf("--version");
  const version = vi === -1 ? undefined : argv[vi + 1];
  const names = argv.filter((a, i) => !a.startsWith("--") && (vi === -1 || i !== vi + 1));
  let failed = 0;
  for (const name of names.length > 0 ? names : all) {
    try {
      await refresh(name, version);
    } catch (error) {
      failed++;
      process.stderr.write(`[${name}] FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
