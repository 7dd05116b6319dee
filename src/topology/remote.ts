/**
 * A repository's identity across machines: its git remote as one key, whatever form the URL takes
 * (`git@github.com:acme/widget.git`, `https://github.com/acme/widget`, `ssh://git@github.com/acme/widget.git`
 * all give `github.com/acme/widget`), so a project checked out under different homes is one project.
 */

/** The key of a remote URL (host lowercased, no user, port, scheme or `.git`), or null when it names no host path. */
export function remoteKey(url: string): string | null {
  const u = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(u);
  const full = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]+@)?([^/:\s]+)(?::\d*)?(\/.*)$/i.exec(u);
  // scp-like `host:path` (never `C:/…` or `host:/abs`: the path must not start with a slash)
  const m = full ?? scp;
  if (!m) return null;
  const host = m[1]!;
  const path = m[2]!;
  const clean = path
    .replace(/^\/+|\/+$/g, "")
    .replace(/\.git$/i, "")
    .replace(/\/+$/g, "");
  if (!clean || !host) return null;
  // lowercased whole: hosts ignore case, and so do the forges teams share repositories on
  return `${host}/${clean}`.toLowerCase();
}

/** The remote a git config names: `origin` when there is one, else the first remote with a URL. */
export function remoteOfConfig(text: string): string | null {
  let section: string | null = null;
  const urls: Array<[name: string, url: string]> = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (head) {
      section = head[1]!;
      continue;
    }
    if (line.startsWith("[")) {
      section = null;
      continue;
    }
    const kv = /^url\s*=\s*(.+)$/.exec(line);
    if (section !== null && kv) urls.push([section, kv[1]!.trim()]);
  }
  const chosen = urls.find(([name]) => name === "origin") ?? urls[0];
  return chosen ? remoteKey(chosen[1]) : null;
}

/** The project name a remote key gives: its last path segment. */
export function projectOfRemote(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}
