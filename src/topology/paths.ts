/** Path normalisation for file entities: one key per file however an agent spelled its path. */
import { posix } from "node:path";

export interface NormalizedPath {
  /** Absolute when the working directory is known, POSIX separators, `.`/`..` resolved. */
  key: string;
  /** Relative to the working directory when inside it, otherwise the key. */
  display: string;
}

/** `home`: the user's home folder when known otherwise (the session's cwd); by default it is read from `cwd`. */
export function normalizePath(path: string, cwd: string | null, home?: string | null): NormalizedPath | null {
  let p = path.trim();
  if (p === "" || p === "." || p.includes("\n") || p.length > 1000) return null;
  if (p.includes("://") && /^[a-z][a-z0-9+.-]*:\/\//i.test(p)) return null;
  if (p.includes("\\")) {
    p = p.replace(/\\/g, "/");
    if (/^[A-Za-z]:\//.test(p)) p = `/${p}`;
  }
  const base = cwd === null ? null : cwd.includes("\\") ? cwd.replace(/\\/g, "/") : cwd;
  if (p.startsWith("~") && (p.length === 1 || p[1] === "/")) {
    // `~/x` is the user's home: known when the working directory lies under one (`/Users/<name>`, `/home/<name>`).
    const h = home ?? (base ? homeOf(base) : null);
    if (h) p = h + p.slice(1);
  }
  const abs = p.startsWith("/") || p.startsWith("~") ? p : base ? `${base}/${p}` : p;
  // posix.normalize is only needed for `.`/`..` segments and doubled slashes.
  const key = (/\/\.{1,2}(\/|$)|\/\//.test(abs) || abs.startsWith(".") ? posix.normalize(abs) : abs).replace(/\/$/, "");
  if (key === "" || key === "/") return null;
  let display = key;
  if (base) {
    const root = base.endsWith("/") ? base.slice(0, -1) : base;
    if (key.startsWith(`${root}/`)) display = key.slice(root.length + 1);
  }
  return { key, display };
}

const HOME_RE = /^(\/Users\/[^/]+|\/home\/[^/]+|\/root|\/var\/root)(?=\/|$)/;

/** The home folder a working directory lies under, or null when the path does not show one. */
export function homeOf(cwd: string): string | null {
  return HOME_RE.exec(cwd)?.[1] ?? null;
}

/** The project a working folder names: its last path segment. */
export function projectOf(cwd: string): string | null {
  const parts = cwd.replace(/\\/g, "/").replace(/\/+$/, "").split("/");
  return parts[parts.length - 1] || null;
}
