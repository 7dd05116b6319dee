/**
 * Redaction: each secret in a text replaced by `[secret:<kind>:<fingerprint>]`. Pure and idempotent (a redacted
 * marker is never found again), so every exit can apply it to whatever it is about to hand on.
 */
import { findSecrets, type SecretFinding } from "./detect.ts";

export function secretMarker(f: Pick<SecretFinding, "kind" | "fingerprint">): string {
  return `[secret:${f.kind}:${f.fingerprint}]`;
}

/** `text` with every finding (by default, every secret found in it now) replaced by its marker. */
export function redactText(text: string, findings: readonly SecretFinding[] = findSecrets(text)): string {
  if (findings.length === 0) return text;
  let out = "";
  let from = 0;
  for (const f of [...findings].sort((a, b) => a.at - b.at)) {
    if (f.at < from) continue;
    out += text.slice(from, f.at) + secretMarker(f);
    from = f.at + f.length;
  }
  return out + text.slice(from);
}

/**
 * The secret values found in some texts, each with its marker. A derived text (a brief's list of names, a
 * summary) can carry a value away from the position that made it recognisable; these catch it there too.
 */
export function knownSecrets(texts: Iterable<string>): Map<string, string> {
  const known = new Map<string, string>();
  for (const text of texts)
    for (const f of findSecrets(text)) known.set(text.slice(f.at, f.at + f.length), secretMarker(f));
  return known;
}

function redactKnown(text: string, known: ReadonlyMap<string, string> | undefined): string {
  if (!known) return text;
  let out = text;
  for (const [value, marker] of known) if (out.includes(value)) out = out.split(value).join(marker);
  return out;
}

/** Every string inside a JSON-like value redacted (and any of the `known` values); the shape unchanged. */
export function redactDeep<T>(value: T, known?: ReadonlyMap<string, string>): T {
  if (typeof value === "string") return redactKnown(redactText(value), known) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, known)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, known);
    return out as T;
  }
  return value;
}
