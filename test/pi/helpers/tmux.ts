/**
 * Drives a program in a private tmux server (its own socket file, no user config), for end-to-end tests of pi's TUI.
 * Screen conditions are awaited by polling `capture-pane` with a deadline; nothing waits a fixed time.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

export interface TmuxSession {
  sendText(text: string): void;
  /** tmux key names, e.g. "Enter", "C-Enter", "C-u". */
  sendKeys(...keys: string[]): void;
  capture(): string;
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  kill(): void;
}

export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

export interface TmuxStartOptions {
  /** Path of the server socket; a temp path keeps the server private and leaves nothing behind. */
  socketPath: string;
  cwd: string;
  command: string[];
  width?: number;
  height?: number;
}

export function startTmux(options: TmuxStartOptions): TmuxSession {
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-u", "-S", options.socketPath, "-f", "/dev/null", ...args], { encoding: "utf8" });
  // extended-keys lets modified keys such as Ctrl+Enter reach the program as distinct sequences.
  tmux(
    "start-server",
    ";",
    "set",
    "-s",
    "extended-keys",
    "on",
    ";",
    "new-session",
    "-d",
    "-s",
    "main",
    "-x",
    String(options.width ?? 120),
    "-y",
    String(options.height ?? 40),
    "-c",
    options.cwd,
    ...options.command,
  );
  const session: TmuxSession = {
    sendText(text) {
      tmux("send-keys", "-t", "main", "-l", text);
    },
    sendKeys(...keys) {
      tmux("send-keys", "-t", "main", ...keys);
    },
    capture() {
      // Rows are padded to the pane width; drop the padding so expectations can match line ends.
      return tmux("capture-pane", "-p", "-J", "-t", "main")
        .split("\n")
        .map((line) => line.trimEnd())
        .join("\n");
    },
    async waitFor(expected, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      while (Date.now() < deadline) {
        screen = session.capture();
        if (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)) return screen;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`screen never showed ${String(expected)} within ${timeoutMs} ms; last screen:\n${screen}`);
    },
    kill() {
      spawnSync("tmux", ["-S", options.socketPath, "kill-server"], { stdio: "ignore" });
      rmSync(options.socketPath, { force: true });
    },
  };
  return session;
}
