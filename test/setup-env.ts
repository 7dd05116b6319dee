/**
 * Every test file starts with no sentence model installed: the machine's own models
 * ($XDG_CACHE_HOME/cairn/models) would otherwise change what every index embeds with, and what search finds. A
 * test about models points CAIRN_MODELS_DIR (or XDG_CACHE_HOME) where it installs one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const none = mkdtempSync(join(tmpdir(), "cairn-no-models-"));
process.env["CAIRN_MODELS_DIR"] = none;
// One per test file: left behind, a full run leaves hundreds of them in the temp folder.
afterAll(() => rmSync(none, { recursive: true, force: true }));
