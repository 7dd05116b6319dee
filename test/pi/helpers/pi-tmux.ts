/**
 * pi's real interactive TUI with cairn loaded, in a private tmux server: a clean environment, temp home and agent
 * directories, offline, with the scripted model provider of test/pi/e2e/fixtures. Keys are meant to be sent only
 * once the editor shows the state they should act on (`editorShows`): pi answers autocomplete asynchronously, and
 * Enter applies a list that is open instead of submitting.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { piCli as defaultPiCli } from "./pi-cli.ts";
import { type EditorView, editorView, startTmux, type TmuxSession } from "./tmux.ts";

const here = dirname(fileURLToPath(import.meta.url));
// What users load: the bundle `npm run build` writes (the tests build first).
const extensionEntry = resolve(here, "../../../dist/cairn/index.js");
const scriptedProvider = resolve(here, "../e2e/fixtures/scripted-provider.ts");

export interface PiInTmux {
  screen: TmuxSession;
  /** The project directory pi runs in. */
  work: string;
  /** pi's agent directory (sessions live under it). */
  agent: string;
  /** Wait until `ready` holds for pi's editor on screen. */
  editor(what: string, ready: (view: EditorView) => boolean): Promise<string>;
  /** Wait until the editor shows exactly `text` with its autocomplete list closed. */
  editorShows(text: string): Promise<string>;
  /** Type `text`, wait until the editor shows it settled, press Enter once. */
  submit(text: string): Promise<void>;
  stop(): void;
}

export interface PiInTmuxOptions {
  width?: number;
  piCli?: string;
  /** pi's model flags (default: the scripted provider's model). */
  model?: string[];
  /** More environment for pi. */
  env?: Record<string, string>;
  /** Writes files before pi starts (models.json, prompt templates…). */
  setup?: (dirs: { scratch: string; home: string; agent: string; work: string }) => void;
}

export async function startPiInTmux(options: PiInTmuxOptions = {}): Promise<PiInTmux> {
  const scratch = mkdtempSync(join(tmpdir(), "cairn-tui-"));
  const [home, agent, work] = ["home", "agent", "work"].map((name) => join(scratch, name)) as [string, string, string];
  for (const dir of [home, agent, work]) mkdirSync(dir, { recursive: true });
  options.setup?.({ scratch, home, agent, work });
  const screen = startTmux({
    socketPath: join(scratch, "tmux.sock"),
    cwd: work,
    ...(options.width ? { width: options.width } : {}),
    command: [
      "env",
      "-i",
      `PATH=${dirname(process.execPath)}:/usr/bin:/bin`,
      `HOME=${home}`,
      `PI_CODING_AGENT_DIR=${agent}`,
      "PI_OFFLINE=1",
      "PI_SKIP_VERSION_CHECK=1",
      "PI_TELEMETRY=0",
      "TERM=xterm-256color",
      "LANG=C.UTF-8",
      ...Object.entries(options.env ?? {}).map(([name, value]) => `${name}=${value}`),
      process.execPath,
      options.piCli ?? defaultPiCli,
      "-e",
      extensionEntry,
      "-e",
      scriptedProvider,
      ...(options.model ?? ["--model", "scripted/m1"]),
    ],
  });
  const stop = () => {
    screen.kill();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    await screen.waitFor("e2e ready");
  } catch (error) {
    stop();
    throw error;
  }
  const editor = (what: string, ready: (view: EditorView) => boolean) =>
    screen.waitUntil(what, (s) => {
      const view = editorView(s, work);
      return view !== undefined && ready(view);
    });
  const editorShows = (text: string) =>
    editor(
      `the editor to show ${JSON.stringify(text)}`,
      (view) => view.lines.join("\n").trim() === text && view.autocomplete.length === 0,
    );
  return {
    screen,
    work,
    agent,
    editor,
    editorShows,
    async submit(text) {
      screen.sendText(text);
      await editorShows(text);
      screen.sendKeys("Enter");
    },
    stop,
  };
}
