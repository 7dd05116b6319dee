/** Path normalisation for file entities: one key per file however an agent spelled its path. */
import { posix } from "node:path";

export interface NormalizedPath {
  /** Absolute when the working directory is known, POSIX separators, `.`/`..` resolved. */
  key: string;
  /** Relative to the working directory when inside it, otherwise the key. */
  display: string;
}

export function normalizePath(path: string, cwd: string | null): NormalizedPath | null {
  let p = path.trim();
  if (p === "" || p === "." || p.includes("\n") || p.length > 1000) return null;
  if (p.includes("://") && /^[a-z][a-z0-9+.-]*:\/\//i.test(p)) return null;
  if (p.includes("\\")) {
    p = p.replace(/\\/g, "/");
    if (/^[A-Za-z]:\//.test(p)) p = `/${p}`;
  }
  const base = cwd === null ? null : cwd.includes("\\") ? cwd.replace(/\\/g, "/") : cwd;
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
