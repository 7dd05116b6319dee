/**
 * Types into Continue CLI's terminal UI, which alone compacts a session on `/compact` and saves it (headless runs
 * compact in memory and never write the result). Run by the Continue driver as a program of its own, so that it
 * inherits the run's environment: `node continue-tui.ts <sessions dir> -- <cn argv…> --messages <message…>`.
 * `script` gives the UI the terminal it needs. Each message is typed once the UI shows its input box and sent once
 * the box shows it; the next one waits until the session file this run writes has taken it (a compaction's summary,
 * or the prompt and a reply that ends the turn). Two Ctrl-C end the UI.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, ...rest] = process.argv.slice(2);
const split = rest.indexOf("--messages");
if (!dir || rest[0] !== "--" || split === -1)
  throw new Error("usage: continue-tui.ts <sessions> -- <argv…> --messages <m…>");
const sessions: string = dir;
const argv = rest.slice(1, split);
const messages = rest.slice(split + 1);

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
const child = spawn("script", ["-qfec", argv.map(quote).join(" "), "/dev/null"], {
  env: { ...process.env, TERM: "xterm-256color" },
  stdio: ["pipe", "pipe", "inherit"],
  detached: true,
});
let screen = "";
child.stdout.on("data", (c: Buffer) => {
  screen += c.toString("utf8");
});
const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes are what is removed
const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\r/g;
/** The screen's text without escapes, spaces and the input box's frame: typed text wraps inside that frame. */
const flat = (text: string) => text.replace(ESCAPES, "").replace(/[\s│╭╮╰╯─]/g, "");

async function until(what: string, done: () => boolean, ms = 180_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms)
      throw new Error(`continue-tui: timed out waiting for ${what}\n${flat(screen).slice(-800)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const before = new Set(readdirSync(sessions));
/** The session file this run writes: the one that was not there before (a fork's), parsed. */
function written(): { history?: Array<Record<string, unknown>> } | null {
  for (const name of readdirSync(sessions)) {
    if (before.has(name) || name === "sessions.json" || !name.endsWith(".json")) continue;
    try {
      return JSON.parse(readFileSync(join(sessions, name), "utf8")) as { history?: Array<Record<string, unknown>> };
    } catch {
      // being written: read it again next time
    }
  }
  return null;
}

const history = () => written()?.history ?? [];
const compacted = () => history().some((h) => typeof h["conversationSummary"] === "string");
const said = (text: string) =>
  history().findLastIndex((h) => (h["message"] as { content?: unknown })?.["content"] === text);

/** The history's last item is a reply with no tool calls, after the message that was typed. */
function turnEnded(text: string): boolean {
  const at = said(text);
  const last = history().at(-1)?.["message"] as { role?: string; toolCalls?: unknown[] } | undefined;
  return at !== -1 && at < history().length - 1 && last?.role === "assistant" && !last.toolCalls?.length;
}

/**
 * Enter, until the message has gone: the UI sometimes leaves an Enter typed while it still starts up unanswered,
 * and one more on an empty box does nothing.
 */
async function submit(text: string, taken: () => boolean): Promise<void> {
  for (let tries = 0; ; tries++) {
    child.stdin.write("\r");
    try {
      return await until(`'${text}' to be taken`, taken, 10_000);
    } catch (error) {
      if (tries === 4) throw error;
      process.stderr.write(`continue-tui: Enter again for '${text}'\n`);
    }
  }
}

try {
  await until("the input box", () => /Askanything/.test(flat(screen)));
  for (const text of messages) {
    const from = screen.length;
    child.stdin.write(text);
    await until(`'${text}' in the input box`, () => flat(screen.slice(from)).includes(flat(text).slice(-24)));
    if (text === "/compact") await submit(text, compacted);
    else {
      await submit(text, () => said(text) !== -1);
      await until(`the reply to '${text}'`, () => turnEnded(text));
    }
  }
  child.stdin.write("\u0003");
  child.stdin.write("\u0003");
  await Promise.race([closed, new Promise((r) => setTimeout(r, 15_000))]);
} finally {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}
