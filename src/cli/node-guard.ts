/**
 * The first module `main.ts` evaluates, so that `node dist/cli/main.js` under an old Node says what to install
 * instead of crashing when better-sqlite3 (built for Node 22) loads. It imports nothing: whatever it imported
 * would be evaluated before the check. `bin/cairn.js` prints the same words from package.json's `engines`; a test
 * keeps both, and MIN_NODE, equal to it.
 */
export const MIN_NODE = "22.19.0";

function older(have: string, want: string): boolean {
  const a = have.split(".").map(Number);
  const b = want.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
  return false;
}

export function nodeTooOldMessage(version: string, execPath: string): string {
  return (
    `cairn needs Node.js ${MIN_NODE} or newer; this is Node.js ${version} (${execPath}).\n` +
    "Install Node.js 22 (https://nodejs.org, or `nvm install 22`, `fnm install 22`, `volta install node@22`) " +
    "and run cairn with it.\n"
  );
}

if (older(process.versions.node, MIN_NODE)) {
  process.stderr.write(nodeTooOldMessage(process.versions.node, process.execPath));
  process.exit(1);
}
