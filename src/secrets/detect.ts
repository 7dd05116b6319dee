/**
 * Secret detection over one text: secretlint's recommended rules plus values in known key positions. A finding
 * says what kind of secret stands where and gives a fingerprint of it (the first 12 hex digits of its SHA-256),
 * never the value itself, so two mentions of one key can be matched without either being shown.
 */
import { holdsPositionMarker, positionHits } from "./positions.ts";
import { holdsRuleMarker, ruleKind, runRules } from "./rules.ts";

export interface SecretFinding {
  kind: string;
  /** UTF-16 offset and length of the value in the text scanned. */
  at: number;
  length: number;
  fingerprint: string;
}

export function fingerprint(value: string): string {
  // node:crypto loads on the first fingerprint: a command that never detects (most do not) skips its load.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(value).digest("hex").slice(0, 12);
}

/** A URL with `user:password@`: only the password is the secret (the host and the user stay readable). */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^:@/\s]+:([^@/\s]+)@/i;

interface Span {
  kind: string;
  at: number;
  end: number;
}

function ruleSpans(text: string): Span[] {
  const out: Span[] = [];
  for (const hit of runRules(text)) {
    if (!hit.value) continue;
    // A rule's range can start before the value it quotes (it ranges from the whole match): find the value.
    let at = text.indexOf(hit.value, hit.at);
    if (at < 0) at = text.indexOf(hit.value);
    if (at < 0) continue;
    let end = at + hit.value.length;
    const kind = ruleKind(hit.rule);
    const url = URL_PASSWORD.exec(hit.value);
    if (url) {
      const pwAt = hit.value.indexOf(`:${url[1]}@`, hit.value.indexOf("://") + 3) + 1;
      at += pwAt;
      end = at + url[1]!.length;
    }
    out.push({ kind, at, end });
  }
  return out;
}

/** Overlapping spans keep the scanner's named kind over a position guess, then the longer span. */
function merge(rule: Span[], position: Span[]): Span[] {
  const all = [...rule.map((s) => ({ ...s, named: 1 })), ...position.map((s) => ({ ...s, named: 0 }))];
  all.sort((a, b) => b.named - a.named || b.end - b.at - (a.end - a.at) || a.at - b.at);
  const kept: typeof all = [];
  for (const s of all) if (!kept.some((k) => s.at < k.end && k.at < s.end)) kept.push(s);
  return kept.sort((a, b) => a.at - b.at);
}

/**
 * A redaction marker already in the text is never a secret itself (so redacting twice changes nothing), nor is a
 * finding's own id (`secret:<kind>:<fingerprint>`, the marker without its brackets), which reads like a value
 * assigned to a name that says "secret".
 */
const MARKER = /\[?secret:[a-z0-9-]+:[0-9a-f]{12}\]?/g;

function withoutMarkers(text: string, spans: Span[]): Span[] {
  if (!text.includes("secret:")) return spans;
  const markers = [...text.matchAll(MARKER)].map((m) => [m.index, m.index + m[0].length] as const);
  return spans.filter((s) => !markers.some(([a, b]) => s.at < b && a < s.end));
}

/** The secrets in `text`, in order of position; none overlap. Most text is ruled out by two cheap tests. */
export function findSecrets(text: string): SecretFinding[] {
  if (text.length < 8) return [];
  const rules = holdsRuleMarker(text) ? ruleSpans(text) : [];
  const positions = holdsPositionMarker(text) ? positionHits(text) : [];
  if (rules.length === 0 && positions.length === 0) return [];
  return withoutMarkers(text, merge(rules, positions)).map((s) => ({
    kind: s.kind,
    at: s.at,
    length: s.end - s.at,
    fingerprint: fingerprint(text.slice(s.at, s.end)),
  }));
}
