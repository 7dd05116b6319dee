/**
 * `cairn tui` (the built bundle) in a private tmux server, with everything it writes to the terminal recorded
 * (`pipe-pane`): a probe reads the screen (`capture-pane`) and the stream, since a transcript's escape sequence
 * can clear the screen and leave a leak on no captured screen. Waits poll the stream for what a step must draw;
 * nothing waits a fixed time. tmux accepts OSC 52 from the program (`set-clipboard on`), so a clipboard write that
 * reached the terminal shows in its buffers, and an OSC 0 title in the pane's title.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLI } from "../../helpers/cli.ts";
import { startTmux, type TmuxSession } from "../../pi/helpers/tmux.ts";
import type { ProbeIndex } from "./index.ts";

const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's own sequences are what this removes
  /\u001b\[[0-9;?<>=]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[P_^][^\u001b]*\u001b\\|\u001b[@-Z\\-_]/g;

export interface TuiProbe {
  tmux: TmuxSession;
  /** Everything cairn wrote to the terminal so far, as bytes decoded. */
  raw(): string;
  /** The stream's text without terminal sequences. */
  text(): string;
  /** Sends keys, then waits until what they make the TUI draw holds `expected` (sought in the new part of the stream). */
  step(keys: string[], expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Types text, then waits as `step` does. */
  type(text: string, expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Sends keys whose effect may draw nothing (a page down at the end), and waits until the TUI is quiet. */
  press(keys: string[]): Promise<void>;
  /** The pane's title (a transcript's OSC 0 would set it). */
  title(): string;
  /** What tmux's paste buffers hold (a transcript's OSC 52 would fill one). */
  buffers(): string;
  kill(): void;
}

export async function startTui(index: ProbeIndex, opts: { width?: number; height?: number } = {}): Promise<TuiProbe> {
  const socketPath = join(index.dir, `tmux-${process.pid}.sock`);
  const rawFile = join(index.dir, `tui-${process.pid}.raw`);
  const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  // The shell waits for a line, so the stream is recorded from cairn's first byte.
  const script = `read go; exec ${[process.execPath, CLI, "tui", "--db", index.db].map(quoted).join(" ")}`;
  const tmux = startTmux({
    socketPath,
    cwd: index.dir,
    width: opts.width ?? 160,
    height: opts.height ?? 48,
    command: [
      "env",
      "-i",
      `PATH=${dirname(process.execPath)}:/usr/bin:/bin`,
      ...Object.entries(index.env).map(([k, v]) => `${k}=${v}`),
      "TERM=xterm-256color",
      "LANG=C.UTF-8",
      "sh",
      "-c",
      script,
    ],
  });
  const ctl = (...args: string[]) =>
    execFileSync("tmux", ["-S", socketPath, ...args], { encoding: "utf8" }).replace(/\n$/, "");
  ctl("set-option", "-g", "set-clipboard", "on");
  ctl("pipe-pane", "-t", "main", "-o", `cat >> ${quoted(rawFile)}`);
  const raw = () => (existsSync(rawFile) ? readFileSync(rawFile, "utf8") : "");
  const text = () => raw().replace(ANSI, "");
  const waitNew = async (from: number, expected: string | RegExp, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const fresh = raw().slice(from).replace(ANSI, "");
      if (typeof expected === "string" ? fresh.includes(expected) : expected.test(fresh)) return fresh;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${String(expected)}; the stream since the keys:\n${fresh.slice(-2000)}\n` +
            `the stream before them:\n${raw().slice(0, from).replace(ANSI, "").replace(/ {3,}/g, "  ").slice(-2000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  tmux.sendKeys("Enter");
  await waitNew(0, /Sessions \(\d+\)/, 60_000);
  return {
    tmux,
    raw,
    text,
    async step(keys, expected, timeoutMs = 30_000) {
      const from = raw().length;
      tmux.sendKeys(...keys);
      return waitNew(from, expected, timeoutMs);
    },
    async type(t, expected, timeoutMs = 30_000) {
      const from = raw().length;
      tmux.sendText(t);
      return waitNew(from, expected, timeoutMs);
    },
    async press(keys) {
      if (keys.length > 0) tmux.sendKeys(...keys);
      // Quiet: the stream has not grown for 400 ms (bounded; what is drawn is checked by the caller, not this).
      let last = -1;
      let still = 0;
      for (let i = 0; i < 200 && still < 4; i++) {
        const now = raw().length;
        still = now === last ? still + 1 : 0;
        last = now;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    title: () => ctl("display-message", "-p", "-t", "main", "#{pane_title}"),
    buffers: () => {
      const names = ctl("list-buffers", "-F", "#{buffer_name}").split("\n").filter(Boolean);
      return names.map((name) => ctl("show-buffer", "-b", name)).join("\n");
    },
    kill: () => tmux.kill(),
  };
}
