/**
 * The pi CLI a test runs: the one the repo builds against, or the one the vitest project names
 * (`CAIRN_TEST_PI_CLI`, set by the pi-0.87 project in vitest.config.ts), and its version for test names.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** pi's own CLI entry (what the `pi` bin links to), run with this Node. */
export const piCli =
  process.env["CAIRN_TEST_PI_CLI"] ?? join(root, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

/** The version of that pi, from its package.json. */
export const piVersion = (
  JSON.parse(readFileSync(resolve(piCli, "../../../package.json"), "utf8")) as { version: string }
).version;
