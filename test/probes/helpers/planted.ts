/**
 * The planted-secrets transcripts (written by Claude Code's, Codex's and pi's own CLIs: scripts/clients/planted/)
 * put back together in a HOME, and the two checks every probe makes on what a surface printed: no 20-character
 * piece of a planted secret, and no terminal escape that came from transcript text.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ESCAPES, type PlantedSecret, plantedSecrets, replant } from "../../../scripts/clients/planted/planted.ts";
import { copyClientHome } from "../../helpers/client-home.ts";
import { REPO } from "../../helpers/transcripts.ts";

export { ESCAPED_NAME, ESCAPES, plantedSecrets, secret } from "../../../scripts/clients/planted/planted.ts";

export const PLANTED_FIXTURES = join(REPO, "test", "probes", "fixtures");
export const CLIENT_FIXTURES = join(REPO, "test", "fixtures", "clients");

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Every `<agent>/<version>/home` under a fixtures folder. */
export function fixtureHomes(root: string): Array<{ agent: string; version: string; home: string }> {
  const out: Array<{ agent: string; version: string; home: string }> = [];
  for (const agent of readdirSync(root).sort())
    for (const version of readdirSync(join(root, agent)).sort()) {
      const home = join(root, agent, version, "home");
      if (statSync(home, { throwIfNoEntry: false })?.isDirectory()) out.push({ agent, version, home });
    }
  return out;
}

/** The planted transcripts, values put back, under `home` (one HOME holding every agent's store). */
export function writePlantedHome(home: string): string[] {
  const files: string[] = [];
  for (const { home: from } of fixtureHomes(PLANTED_FIXTURES))
    for (const file of walk(from)) {
      const to = join(home, relative(from, file));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, replant(readFileSync(file, "utf8")));
      files.push(to);
    }
  return files;
}

/** The agents' client fixtures (every agent, every version) copied into one HOME. */
export function writeClientHome(home: string): void {
  for (const { home: from } of fixtureHomes(CLIENT_FIXTURES)) copyClientHome(from, home);
}

const WINDOW = 20;

/** Every 20-character window of every piece of a secret (a piece shorter than that is its own window). */
function windows(s: PlantedSecret): string[] {
  const out = new Set<string>();
  for (const piece of s.pieces)
    if (piece.length <= WINDOW) out.add(piece);
    else for (let i = 0; i + WINDOW <= piece.length; i++) out.add(piece.slice(i, i + WINDOW));
  return [...out];
}

const SECRET_WINDOWS = plantedSecrets().map((s) => ({ name: s.name, windows: windows(s) }));

/** JSON string escapes undone (an output that is JSON, or holds JSON inside a text). */
function unescapeJson(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_m, hex: string | undefined, c: string) => {
    if (hex) return String.fromCharCode(Number.parseInt(hex, 16));
    return ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[c] ?? c;
  });
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** HTML markup a highlighter or a renderer puts between a secret's characters, and entities, undone. */
function unHtml(text: string): string {
  return text
    .replace(/<[^<>]{0,200}>/g, "")
    .replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|([a-z]+));/g, (m, dec: string, hex: string, name: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
      return ENTITIES[name] ?? m;
    });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes are what this removes
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

/**
 * The views of an output a secret is sought in: as printed; JSON escapes undone; terminal escapes, highlight marks
 * («», **, HTML tags and entities) and every blank and box-drawing character taken out, so a value split by a
 * highlight, a wrapped line or a pane border is found whole.
 */
export function views(output: string): string[] {
  const plain = unHtml(unescapeJson(unescapeJson(output)))
    .replace(ANSI, "")
    .replace(/[«»]|\*\*/g, "");
  return [output, plain, plain.replace(/[\s│┃║|▏▕…]+/g, "")];
}

export interface Leak {
  secret: string;
  window: string;
  /** The text around the first place it was found (in the view it was found in). */
  context: string;
}

/** The planted secrets an output still holds, each with the first 20-character window found and its context. */
export function leaks(output: string): Leak[] {
  const out: Leak[] = [];
  const texts = views(output);
  for (const { name, windows } of SECRET_WINDOWS) {
    let found: Leak | undefined;
    for (const text of texts) {
      for (const w of windows) {
        const at = text.indexOf(w);
        if (at >= 0) {
          found = { secret: name, window: w, context: text.slice(Math.max(0, at - 40), at + 60) };
          break;
        }
      }
      if (found) break;
    }
    if (found) out.push(found);
  }
  return out;
}

/** The names of the secrets an output leaks (for `expect(...).toEqual([])`, which then lists them). */
export function leakedNames(output: string): string[] {
  return leaks(output).map((l) => `${l.secret}: …${l.context}…`);
}

/**
 * Leaks gathered over many outputs, one line per distinct leak (secret and the text around it) naming the first
 * output that showed it and how many did: a failure lists what leaks where without repeating itself.
 */
export class LeakReport {
  private readonly seen = new Map<string, { first: string; count: number }>();

  add(where: string, output: string): void {
    for (const l of leaks(output)) {
      const key = `${l.secret}: …${l.context.replace(/\s+/g, " ")}…`;
      const entry = this.seen.get(key);
      if (entry) entry.count++;
      else this.seen.set(key, { first: where, count: 1 });
    }
  }

  lines(): string[] {
    return [...this.seen].map(
      ([key, { first, count }]) => `${key}  ← ${first}${count > 1 ? ` (+${count - 1} more)` : ""}`,
    );
  }
}

/**
 * What cairn itself may send to a terminal: SGR colour (`ESC [ … m`) and erase-in-line (`ESC [ K`, the progress
 * line). Anything else that starts with ESC, or a C1 control, BEL or backspace, came from transcript text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the sequences cairn writes itself
const CAIRN_OWN = /\u001b\[[0-9;]*m|\u001b\[K/g;

/** A text as a JSON string, C1 controls escaped too (JSON leaves them raw, and a terminal acts on them). */
export function shown(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** What a terminal must not receive from transcript text, each with how it is recognised. */
const FOREIGN: Array<[string, RegExp]> = [
  // biome-ignore-start lint/suspicious/noControlCharactersInRegex: control characters are what these find
  ["OSC (ESC ])", /\u001b\]/],
  ["CSI 2J (clear screen)", /\u001b\[2J/],
  ["other ESC sequence", /\u001b(?!\]|\[2J)/],
  ["C1 CSI (U+009B)", /\u009b/],
  ["other C1 control", /[\u0080-\u009a\u009c-\u009f]/],
  ["BEL", /\u0007/],
  ["backspace", /\u0008/],
  ["other C0 control", /[\u0000-\u0006\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/],
  // biome-ignore-end lint/suspicious/noControlCharactersInRegex: control characters are what these find
];

export interface EscapeFound {
  what: string;
  context: string;
}

/** The planted (or any foreign) control sequences in terminal output, cairn's own colour codes excepted. */
export function foreignEscapes(output: string | Buffer): EscapeFound[] {
  const text = typeof output === "string" ? output : output.toString("utf8");
  const rest = text.replace(CAIRN_OWN, "");
  const found: EscapeFound[] = [];
  const seek = (what: string, re: RegExp) => {
    const m = re.exec(rest);
    if (m) found.push({ what, context: shown(rest.slice(Math.max(0, m.index - 30), m.index + 30)) });
  };
  for (const [what, re] of FOREIGN) seek(what, re);
  if (typeof output !== "string" && loneCsiByte(output) && !text.includes("\u009b"))
    found.push({ what: "raw byte 0x9b", context: "" });
  return found;
}

/**
 * A byte 0x9b that is not part of a UTF-8 character: what an 8-bit terminal reads as CSI. Inside a character (␛ is
 * E2 90 9B) it is a continuation byte, which no UTF-8 terminal takes for a control.
 */
function loneCsiByte(buf: Buffer): boolean {
  for (let i = 0; i < buf.length; ) {
    const b = buf[i]!;
    const size = b < 0x80 ? 1 : b >= 0xf0 && b < 0xf8 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
    if (size === 0) {
      if (b === 0x9b) return true;
      i++;
      continue;
    }
    let whole = i + size <= buf.length;
    for (let k = 1; whole && k < size; k++) whole = (buf[i + k]! & 0xc0) === 0x80;
    i += whole ? size : 1;
  }
  return false;
}

/** The escapes planted, for tests that check the planting itself. */
export const PLANTED_ESCAPES = Object.values(ESCAPES);
