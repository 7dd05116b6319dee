/** Finds the built viewport page: `dist/web` in cairn's package root, whether running from src/ or dist/. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function findWebRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "cairn")
          return join(dir, "dist", "web");
      } catch {}
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("could not find cairn's package root to serve dist/web from");
    dir = parent;
  }
}
