/**
 * The start brief from a process of its own: `cairn hooks run pi` through the CLI's bundle beside the extension's.
 * pi's process then loads neither SQLite nor cairn's index code at a session's start, and the brief is built on
 * another core while pi starts (in-process, the brief added 140 ms to `pi -p`, which asks at once; docs/performance.md
 * "Issue 39"). The child is left to finish when pi exits first; its outcome goes to `cairn hooks status`.
 */
import { spawn } from "node:child_process";
import { readState, recordRun, skipReason } from "../../app/hook-state.ts";
import type { StartBriefSource } from "./start-brief-source.ts";

export function childStartBriefs(cli: string, env: Record<string, string | undefined> = process.env): StartBriefSource {
  return {
    startBrief(req) {
      // Turned off for this session or this folder: no process at all (the run is still counted).
      const start = { cwd: req.cwd, sessionId: req.sessionId, continuation: false };
      const skip = skipReason(start, env, readState(env));
      if (skip) {
        recordRun(env, "pi", { outcome: `skipped: ${skip}`, briefed: false, ms: 0, at: new Date() });
        return Promise.resolve(null);
      }
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, "hooks", "run", "pi"], {
          stdio: ["pipe", "pipe", "ignore"],
          env: env as NodeJS.ProcessEnv,
        });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
        });
        child.on("error", () => resolve(null));
        child.on("close", () => resolve(out.trim() === "" ? null : out));
        const input = { cwd: req.cwd, session_id: req.sessionId, source: "startup" };
        child.stdin.end(JSON.stringify(req.sessionFile ? { ...input, transcript_path: req.sessionFile } : input));
        // pi may exit before the brief is asked for (a command alone, `pi -p` failing): it does not wait for it.
        child.unref();
        for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void }).unref?.();
      });
    },
  };
}
