// What a tool call's input says, read without knowing which agent wrote it: the folder it ran in, the text it
// wrote, and the input rendered as searchable text.

export function workdirOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const w = (input as Record<string, unknown>)["workdir"] ?? (input as Record<string, unknown>)["cwd"];
  return typeof w === "string" && w.startsWith("/") ? w : null;
}

export function writtenText(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const a = input as Record<string, unknown>;
  const v = a["content"] ?? a["new_string"] ?? a["newText"] ?? a["file_text"];
  return typeof v === "string" ? v : null;
}

/**
 * The text of a tool call: `key: value` lines, so paths, old/new text and patterns read (and search) as
 * written, without JSON escaping; nested values stay JSON.
 */
export function renderInput(input: unknown): string {
  if (typeof input === "string") return input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return safeJson(input);
  let out = "";
  for (const key in input) {
    const v = (input as Record<string, unknown>)[key];
    const text = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : safeJson(v);
    out = out === "" ? `${key}: ${text}` : `${out}\n${key}: ${text}`;
  }
  return out;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return String(v);
  }
}
