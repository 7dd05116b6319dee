/** Serves the built viewport page (dist/web) from memory: a fixed set of file types, nothing outside the root. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

export interface StaticFiles {
  /** Null when the path is not a servable file. */
  read(urlPath: string): StaticFile | null;
  readonly available: boolean;
}

export function createStaticFiles(root: string): StaticFiles {
  const cache = new Map<string, StaticFile | null>();
  const base = normalize(root + sep);
  return {
    get available() {
      return existsSync(join(root, "index.html"));
    },
    read(urlPath) {
      const cached = cache.get(urlPath);
      if (cached !== undefined) return cached;
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return null;
      }
      const relative = decoded === "/" ? "index.html" : decoded.replace(/^\/+/, "");
      const full = normalize(join(root, relative));
      const type = TYPES[extname(full)];
      let file: StaticFile | null = null;
      if (type && full.startsWith(base) && !relative.includes("\0") && existsSync(full) && statSync(full).isFile()) {
        file = { body: readFileSync(full), type };
      }
      if (cache.size < 256) cache.set(urlPath, file);
      return file;
    },
  };
}
