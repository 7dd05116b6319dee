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

/** Every string inside a JSON-like value redacted; other values and the shape unchanged. */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
