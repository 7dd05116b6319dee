/**
 * Secrets found by where they stand rather than by a provider's prefix: a high-entropy value assigned to a name
 * that says it is a credential (`API_KEY=…`, `"client_secret": "…"`, `password: …`), a bearer token, a JSON Web
 * Token, and a PEM private key block (also when its newlines are escaped inside a JSON string, which the
 * scanner's own rule does not take). Each value must look random; placeholders and references do not count.
 */
import { entropy } from "./entropy.ts";

export interface PositionHit {
  kind: string;
  at: number;
  end: number;
}

/**
 * A credential word ending a name, then `=`/`:`, then the value (quoted or bare). The match starts at the word
 * (a pattern starting with the name's free prefix would retry at every character); the name is read back after.
 */
const ASSIGNMENT =
  /(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|pwd|credentials?|private[_-]?key|access[_-]?key|auth[_-]?key|_KEY)[A-Za-z0-9_.-]*["']?\s*(?::|=|:=|=>)\s*["'`]?([^\s"'`,;)\]}<>]{8,512})/gi;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

function nameBefore(text: string, at: number, upTo: number): string {
  let from = at;
  while (from > 0 && NAME_CHAR.test(text[from - 1]!)) from--;
  return text.slice(from, upTo);
}
const BEARER = /\b(?:Bearer|token)\s+([A-Za-z0-9\-._~+/]{20,}=*)/g;
/** Google API keys have a fixed shape (`AIza` and 35 characters) that the recommended preset has no rule for. */
const GOOGLE_KEY = /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g;
const BEARER_WORD = /bearer|token\s/i;
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;
const PEM =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{40,16000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;

/** Words a placeholder or a reference carries (`YOUR_KEY`, `<token>`, `${TOKEN}`, `process.env.X`, `sk-...`). */
const PLACEHOLDER =
  /\.\.\.|x{4,}|\*{3,}|your|example|placeholder|changeme|redacted|dummy|secret:|^\$|^<|^%|process\.env|env\(|^\[/i;

/** Names that hold public or structural values, not credentials. */
const NOT_SECRET_NAME =
  /public|_id$|_path$|_file$|_url$|_env$|_name$|_type$|max_?tokens?|tokens?_|_count|tokenizer|token_?type/i;

function looksRandom(value: string, strongName: boolean): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/^[./~]|\/.*\//.test(value)) return false; // a path
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false; // a UUID
  if (/^[a-z]+(?:[._-][a-z]+)*$/i.test(value)) return false; // words or an identifier
  if (/^(?:true|false|null|none|undefined)$/i.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[A-Z0-9_]+$/.test(value)) return false; // env.X_SECRET, X_SECRET
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  if (strongName && value.length >= 8 && value.length < 16) return hasDigit && hasLetter && entropy(value) >= 2.8;
  return value.length >= 16 && hasDigit && hasLetter && entropy(value) >= 3.2;
}

/** Names that say credential outright, beyond a bare `_key`. */
const STRONG_NAME = /api[_-]?key|secret|token|passw|pwd|credential|private|access|auth/i;

/** Password-like names take shorter values: a human-chosen password is short and low in entropy. */
const PASSWORD_NAME = /passw(?:or)?d|passwd|pwd|secret/i;

export function positionHits(text: string): PositionHit[] {
  const out: PositionHit[] = [];
  // Each pattern runs only on text that holds its own word: most text with one of the markers holds one.
  if (text.includes("PRIVATE KEY"))
    for (const m of text.matchAll(PEM)) out.push({ kind: "private-key", at: m.index, end: m.index + m[0].length });
  if (text.includes("AIza"))
    for (const m of text.matchAll(GOOGLE_KEY))
      out.push({ kind: "google-key", at: m.index, end: m.index + m[0].length });
  if (text.includes("eyJ"))
    for (const m of text.matchAll(JWT)) out.push({ kind: "jwt", at: m.index, end: m.index + m[0].length });
  if (BEARER_WORD.test(text))
    for (const m of text.matchAll(BEARER)) {
      const value = m[1]!;
      if (!looksRandom(value, false)) continue;
      const at = m.index + m[0].length - value.length;
      out.push({ kind: "bearer-token", at, end: at + value.length });
    }
  for (const m of text.matchAll(ASSIGNMENT)) {
    if (text.startsWith("[secret:", m.index - 1)) continue; // a redaction marker, not a name
    const raw = m[1]!;
    const value = raw.replace(/[.]+$/, "");
    const name = nameBefore(text, m.index, m.index + m[0].length - raw.length).replace(/["'\s:=>]+$/, "");
    if (NOT_SECRET_NAME.test(name)) continue;
    // A digest under a generic key name (`cache_key`, `etag_key`) is a hash, not a credential.
    if (!STRONG_NAME.test(name) && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(value)) continue;
    if (!looksRandom(value, PASSWORD_NAME.test(name))) continue;
    const at = m.index + m[0].length - raw.length;
    out.push({ kind: "assigned-secret", at, end: at + value.length });
  }
  return out;
}

/** Text without one of these words has no value in a key position. */
export const POSITION_MARKERS = /key|secret|token|passw|pwd|credential|bearer|eyJ|PRIVATE KEY|AIza/gi;

/**
 * Whether a text holds one of `POSITION_MARKERS`, sought from a rarer letter of each (`k`, `c`, `w`, `b`, `j`,
 * `z`; `PRIVATE KEY` holds `key`) with the rest checked around it: the same answer in about two thirds of the time.
 */
const POSITION_MARKER_TEST =
  /k(?:ey|(?<=tok)en)|c(?:(?<=sec)ret|redential)|w(?:(?<=passw)|(?<=pw)d)|bearer|j(?<=eyj)|z(?<=aiz)a/i;

export function holdsPositionMarker(text: string): boolean {
  return POSITION_MARKER_TEST.test(text);
}
