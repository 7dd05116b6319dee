/** This package's version; `src/app` and `dist/app` are both two levels below the package root. */
import { readFileSync } from "node:fs";

export function cairnVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}
