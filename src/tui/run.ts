/**
 * Runs the browser in the terminal with pi-tui: the alternate screen (so the shell's screen comes back as it was
 * on exit), keys and mouse wheel to the browser, redraws on resize, a poll that shows new events of a live index,
 * and a clean stop on q, Ctrl-C, SIGINT and SIGTERM.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  type Component,
  KeybindingsManager,
  ProcessTerminal,
  setKeybindings,
  type Terminal,
  TUI_KEYBINDINGS,
  TuiAltScreen,
  type TuiMouseEvent,
} from "@earendil-works/pi-tui";
import { createAskService } from "../app/ask-service.ts";
import type { ReadCairn } from "../app/cairn.ts";
import { renderExport } from "../app/export/render.ts";
import { ACTIONS } from "./actions.ts";
import { Browser, type BrowserHost } from "./browser.ts";
import { renderScreen } from "./layout.ts";
import { searchBackend } from "./search-thread.ts";
import { createStyle } from "./style.ts";

export interface TuiOptions {
  app: ReadCairn;
  color: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Stops the UI (SIGINT/SIGTERM as the CLI sees them). */
  signal?: AbortSignal;
  terminal?: Terminal;
  /** How often the open session is checked for new events. */
  pollMs?: number;
  /** Told the browser once it exists: for benches that drive the UI in-process. */
  onBrowser?: (browser: Browser) => void;
}

/** How the UI ended: plainly, or asking to resume a session with these `cairn resume` arguments. */
export interface TuiExit {
  resume?: string[];
}

/** The keys the browser pages with are its own, not the alternate screen's viewport scrolling. */
function ownPagingKeys(): void {
  const none: Record<string, never[]> = {};
  for (const id of Object.keys(TUI_KEYBINDINGS)) if (id.startsWith("tui.altScreen.")) none[id] = [];
  setKeybindings(new KeybindingsManager(TUI_KEYBINDINGS, none));
}

export function runTui(opts: TuiOptions): Promise<TuiExit> {
  ownPagingKeys();
  const terminal = opts.terminal ?? new ProcessTerminal();
  const tui = new TuiAltScreen(terminal, false, undefined, { mouse: true, copyOnSelect: false });
  return new Promise<TuiExit>((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let browser: Browser | null = null;
    const quit = (then?: { resume: string[] }) => {
      if (done) return;
      done = true;
      if (timer) clearInterval(timer);
      browser?.close();
      opts.signal?.removeEventListener("abort", onAbort);
      tui.stop({ preserveScreen: true });
      resolve(then ?? {});
    };
    const onAbort = () => quit();
    const host: BrowserHost = {
      rows: () => terminal.rows,
      requestRender: () => tui.requestRender(),
      copy: (text) => copyText(terminal, text, opts.env),
      async exportSession(sessionId) {
        const path = join(opts.cwd, `cairn-${sessionId.slice(0, 8)}.md`);
        writeFileSync(path, renderExport(await opts.app.exportDocument(sessionId), "md"));
        return path;
      },
      quit,
    };
    try {
      const search = searchBackend(opts.app, opts.env, opts.cwd);
      const ask = createAskService(opts.app, opts.env);
      const b = new Browser(opts.app, createStyle(opts.color), host, { actions: ACTIONS, search, ask });
      browser = b;
      // The UI's own handle reads timelines for as long as it is open.
      opts.app.reader().expectLongUse?.();
      opts.onBrowser?.(b);
      const root: Component = {
        render: (width) => renderScreen(b, width, terminal.rows),
        handleInput: (data) => b.handleInput(data),
        handleMouse(event: TuiMouseEvent) {
          if (event.type !== "wheel" || !event.wheelDelta) return undefined;
          b.wheel(Math.sign(event.wheelDelta) * 3);
          return { handled: true };
        },
        invalidate() {},
      };
      tui.addChild(root);
      tui.setFocus(root);
      opts.signal?.addEventListener("abort", onAbort);
      if (opts.signal?.aborted) return quit();
      tui.start();
      // The search thread starts with the UI rather than at the first search: it takes about 0.7 s to load its
      // modules, open the index and read the pages ranking needs, which a first key typed later no longer waits
      // for. It costs about 50 MB of RSS whether or not anything is searched (docs/tui.md).
      setImmediate(() => {
        if (!done) search.warm();
      });
      let tick = 0;
      timer = setInterval(() => {
        try {
          b.poll(tick++ % 10 === 0);
        } catch {
          // A poll that meets the index mid-write tries again on the next tick.
        }
      }, opts.pollMs ?? 400);
    } catch (error) {
      if (!done) {
        done = true;
        if (timer) clearInterval(timer);
        browser?.close();
        tui.stop({ preserveScreen: true });
      }
      reject(error);
    }
  });
}

/**
 * The clipboard through the terminal (OSC 52: works over ssh and in tmux with set-clipboard), and a file beside
 * it for terminals that ignore OSC 52.
 */
function copyText(terminal: Terminal, text: string, env: Record<string, string | undefined>): string {
  terminal.write(`\x1b]52;c;${Buffer.from(text).toString("base64")}\x07`);
  const dir = join(env["XDG_CACHE_HOME"] || join(env["HOME"] || homedir(), ".cache"), "cairn");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "clipboard.txt");
  writeFileSync(path, text);
  return `OSC 52; also in ${path}`;
}
