/**
 * Drives a program in a private tmux server (its own socket file, no user config), for end-to-end tests of pi's TUI.
 * Screen conditions are awaited by polling `capture-pane` with a deadline; nothing waits a fixed time.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

/** What pi's editor shows: its text lines, and the autocomplete rows listed under it (empty when closed). */
export interface EditorView {
  lines: string[];
  autocomplete: string[];
}

const BORDER = /^─{20,}$/;

/**
 * pi's editor on a captured screen: the text between the last two full-width borders, and the autocomplete rows
 * pi draws right under the bottom border (the selected one starts with "→ "), up to the footer's working
 * directory line.
 */
export function editorView(screen: string, footerStart: string): EditorView | undefined {
  const rows = screen.split("\n");
  const borders = rows.flatMap((row, index) => (BORDER.test(row.trim()) ? [index] : []));
  const bottom = borders.at(-1);
  const top = borders.at(-2);
  if (top === undefined || bottom === undefined) return undefined;
  const after = rows.slice(bottom + 1);
  const footer = after.findIndex((row) => row.startsWith(footerStart));
  return {
    lines: rows.slice(top + 1, bottom).map((row) => row.trimEnd()),
    autocomplete: (footer < 0 ? [] : after.slice(0, footer)).filter((row) => row.trim().length > 0),
  };
}

export interface TmuxSession {
  sendText(text: string): void;
  /** tmux key names, e.g. "Enter", "C-Enter", "C-u". */
  sendKeys(...keys: string[]): void;
  capture(): string;
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /**
   * Poll the screen until `ready(screen)` holds; `what` names the condition in the timeout error. The default
   * ceiling is generous: a fresh clone's first pi start compiles the extension, and other tests load the machine.
   */
  waitUntil(what: string, ready: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
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
    waitFor(expected, timeoutMs) {
      const matches = (screen: string) =>
        typeof expected === "string" ? screen.includes(expected) : expected.test(screen);
      return session.waitUntil(`the screen to show ${String(expected)}`, matches, timeoutMs);
    },
    async waitUntil(what, ready, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let screen = "";
      while (Date.now() < deadline) {
        screen = session.capture();
        if (ready(screen)) return screen;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last screen:\n${screen}`);
    },
    kill() {
      spawnSync("tmux", ["-S", options.socketPath, "kill-server"], { stdio: "ignore" });
      rmSync(options.socketPath, { force: true });
    },
  };
  return session;
}
