/**
 * Labelled snippets for `npm run eval:secrets` and the secrets tests: planted secrets of each common kind and
 * look-alikes that are not secrets. Every fake value is composed at run time from a seeded generator and split
 * prefixes, so no string in the repository looks like a live key.
 */

/** A deterministic pseudo-random string over `alphabet` (seeded, so runs compare). */
export function fakeChars(seed: number, length: number, alphabet = ALNUM): string {
  let x = seed * 2654435761 + 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[Math.floor((x / 2147483648) * alphabet.length)];
  }
  return out;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64 = `${ALNUM}+/`;
const HEX = "0123456789abcdef";
/** Prefixes joined at run time, so the source never holds a key-shaped literal. */
const p = (...parts: string[]) => parts.join("");

export interface SecretCase {
  label: string;
  text: string;
  /** The planted value (absent for a look-alike that must not be found). */
  secret?: string;
  /** A secret detection is known to miss (no prefix, no key position): counted in the eval, left out of tests. */
  knownMiss?: boolean;
}

function pem(seed: number): string {
  const body = p("MII", "EvQIBADANBgkqhkiG9w0BAQEFAASC", fakeChars(seed, 900, B64));
  const lines = body.match(/.{1,64}/g)!.join("\n");
  return p("-----BEGIN ", "PRIVATE KEY-----\n", lines, "\n-----END ", "PRIVATE KEY-----");
}

function jwt(seed: number): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${enc({ alg: "HS256", typ: "JWT" })}.${enc({ sub: fakeChars(seed, 10), iat: 1700000000 })}.${fakeChars(seed + 1, 43, `${ALNUM}-_`)}`;
}

/** Planted secrets: the text as it would appear in a transcript, and the value that must not leave. */
export function plantedCases(): SecretCase[] {
  const openai = p("sk-", "proj-", fakeChars(1, 74, `${ALNUM}_-`), "T3Blbk", "FJ", fakeChars(2, 74, `${ALNUM}_-`));
  const anthropic = p("sk-", "ant-", "api03-", fakeChars(3, 93, `${ALNUM}_-`), "AA");
  const awsId = p("AK", "IA", fakeChars(4, 16, UPPER_NUM));
  const awsSecret = fakeChars(5, 40, B64);
  const github = p("gh", "p_", fakeChars(6, 36));
  const githubFine = p("github", "_pat_", fakeChars(7, 82, `${ALNUM}_`));
  const slack = p("xo", "xb-", "1234567890", "-", "9876543210", "-", fakeChars(8, 24));
  const stripe = p("sk", "_live_", fakeChars(9, 32));
  const google = p("AI", "za", fakeChars(10, 35, `${ALNUM}_-`));
  const pgPassword = fakeChars(11, 18);
  const basicPassword = fakeChars(12, 14);
  const envValue = fakeChars(13, 32);
  const jsonValue = fakeChars(14, 40, `${ALNUM}_-`);
  const bearer = fakeChars(15, 48, `${ALNUM}-._`);
  const token = jwt(16);
  const key = pem(17);
  const npm = p("np", "m_", fakeChars(18, 36));
  const password = `${fakeChars(19, 6)}!${fakeChars(20, 5)}`;
  const slackHook = p(
    "https://hooks.",
    "slack.com/services/T",
    fakeChars(21, 8, UPPER_NUM),
    "/B",
    fakeChars(22, 8, UPPER_NUM),
    "/",
    fakeChars(23, 24),
  );
  const stripeRestricted = p("rk", "_test_", fakeChars(24, 40));
  const googleBare = p("AI", "za", fakeChars(25, 35, `${ALNUM}_-`));
  const proseSecret = `${fakeChars(26, 5)}#${fakeChars(27, 6)}`;
  return [
    { label: "openai key in a prompt", text: `here is my key ${openai} use it for the tests`, secret: openai },
    { label: "anthropic key in .env", text: `ANTHROPIC_API_KEY=${anthropic}\nDEBUG=1`, secret: anthropic },
    { label: "aws access key id", text: `aws_access_key_id = ${awsId}`, secret: awsId },
    { label: "aws secret key", text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
    {
      label: "github classic token",
      text: `git remote set-url origin https://x:${github}@github.com/o/r`,
      secret: github,
    },
    { label: "github fine-grained token", text: `export GH_TOKEN=${githubFine}`, secret: githubFine },
    { label: "slack bot token", text: `SLACK_BOT=${slack}`, secret: slack },
    { label: "stripe live key", text: `const stripe = new Stripe("${stripe}");`, secret: stripe },
    { label: "google api key", text: `GOOGLE_API_KEY=${google}`, secret: google },
    { label: "private key", text: `cat id_rsa\n${key}\n`, secret: key },
    {
      label: "postgres url",
      text: `DATABASE_URL=postgres://app:${pgPassword}@db.internal:5432/app`,
      secret: pgPassword,
    },
    {
      label: "basic-auth url",
      text: `curl https://deploy:${basicPassword}@ci.example.org/hook`,
      secret: basicPassword,
    },
    { label: ".env assignment", text: `# .env\nSERVICE_SECRET_KEY=${envValue}\nPORT=3000`, secret: envValue },
    { label: "json api_key", text: `{"name": "svc", "api_key": "${jsonValue}"}`, secret: jsonValue },
    {
      label: "bearer header",
      text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.org`,
      secret: bearer,
    },
    { label: "jwt", text: `session cookie: ${token}`, secret: token },
    { label: "npm token", text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm },
    { label: "password assignment", text: `DB_PASSWORD=${password}`, secret: password },
    { label: "slack webhook", text: `curl -X POST ${slackHook}`, secret: slackHook },
    {
      label: "stripe key in prose",
      text: `the restricted key is ${stripeRestricted}, rotate it`,
      secret: stripeRestricted,
    },
    {
      label: "google key bare (no name)",
      text: `fetch("https://maps.example/api?k=${googleBare}")`,
      secret: googleBare,
    },
    {
      label: "password in prose (no name)",
      text: `log in as admin with ${proseSecret} please`,
      secret: proseSecret,
      knownMiss: true,
    },
  ];
}

/** Look-alikes: long random-looking strings that are not credentials. */
export function lookAlikeCases(): SecretCase[] {
  const sha1 = fakeChars(30, 40, HEX);
  const sha256 = fakeChars(31, 64, HEX);
  const uuid = [8, 4, 4, 4, 12].map((n, i) => fakeChars(32 + i, n, HEX)).join("-");
  const png = p("data:image/png;base64,", "iVBORw0KGgo", fakeChars(33, 400, B64), "==");
  const integrity = p("sha512-", fakeChars(34, 86, B64), "==");
  return [
    { label: "git sha", text: `commit ${sha1}\nAuthor: a <a@b.c>` },
    { label: "sha256 digest", text: `sha256:${sha256}  dist/cairn.tgz` },
    { label: "uuid", text: `session ${uuid} resumed` },
    { label: "uuid as key", text: `"idempotency_key": "${uuid}"` },
    { label: "base64 image", text: `![shot](${png})` },
    { label: "npm integrity", text: `"integrity": "${integrity}"` },
    { label: "placeholder sk-...", text: "OPENAI_API_KEY=sk-..." },
    { label: "placeholder YOUR_KEY", text: "API_KEY=YOUR_KEY" },
    { label: "placeholder angle", text: "Authorization: Bearer <token>" },
    { label: "env reference", text: "apiKey: process.env.OPENAI_API_KEY," },
    { label: "shell reference", text: 'export TOKEN="$GITHUB_TOKEN"' },
    { label: "token count", text: '"max_tokens": 4096, "input_tokens": 1234' },
    { label: "key name in code", text: "const secretKey = getSecretKey(config);" },
    { label: "url without password", text: "postgres://localhost:5432/app and https://github.com/o/r" },
    { label: "example aws key", text: p("AK", "IAIOSFODNN7", "EXAMPLE") },
    { label: "public key", text: `PUBLIC_KEY=${fakeChars(35, 44, B64)}` },
    { label: "sha256 as a cache key", text: `"cache_key": "${fakeChars(36, 64, HEX)}"` },
    { label: "git sha as a key", text: `KEY=${fakeChars(37, 40, HEX)}` },
    { label: "css hex colour token", text: "--token-primary: #1a2b3c4d5e6f;" },
  ];
}
