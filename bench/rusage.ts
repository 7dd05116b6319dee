/**
 * A child process timed from outside: the CPU of all its threads (user + system) and its peak resident memory, as
 * the kernel's rusage gives them. Python's `os.wait4` prints them to the microsecond; /usr/bin/time, the fallback,
 * prints 10 ms steps, and an empty Node start takes one or two of those on a fast core.
 */
import { existsSync, readFileSync } from "node:fs";

const WAIT4 = `import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write(f"{ru.ru_utime:.6f} {ru.ru_stime:.6f} {ru.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))`;
const PYTHON = ["/usr/bin/python3", "/usr/local/bin/python3"].find((p) => existsSync(p)) ?? null;
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/** Whether a timer is there at all (without one, only wall time is measured). */
export const HAS_TIMER = PYTHON !== null || TIME !== null;

/** The command that runs `argv` under the timer, writing its usage to `file`. */
export function underTimer(file: string, argv: string[]): { command: string; args: string[] } {
  if (PYTHON) return { command: PYTHON, args: ["-c", WAIT4, file, ...argv] };
  if (TIME) return { command: TIME, args: ["-f", "%U %S %M", "-o", file, ...argv] };
  return { command: argv[0]!, args: argv.slice(1) };
}

/** What the timer wrote: CPU in ms and peak RSS in MB (Linux reports kB), or null without a timer or a line yet. */
export function readUsage(file: string): { cpuMs: number; rssMb: number } | null {
  if (!HAS_TIMER || !existsSync(file)) return null;
  const line = readFileSync(file, "utf8").trim().split("\n").at(-1) ?? "";
  if (line === "") return null;
  const [user, sys, rssKb] = line.split(" ").map(Number);
  return { cpuMs: ((user ?? 0) + (sys ?? 0)) * 1000, rssMb: (rssKb ?? 0) / 1024 };
}
