/**
 * What a Codex tool call's output says: its text, exit code and success. Codex has written it three ways over its
 * versions: a JSON string with metadata, "Exit code: N … Output:" text, or content blocks.
 */
import { contentText, isObj, obj, str } from "../json.ts";

export interface ParsedOutput {
  text: string;
  exitCode: number | null;
  success: boolean | null;
  meta?: Record<string, unknown>;
}

const EXIT_LINE = /^Exit code: (-?\d+)\s*$/m;
const PROCESS_EXIT = /Process exited with code (-?\d+)/;
const PATCH_FAILED = /^(apply_patch verification failed|Failed to apply patch|Invalid patch)/;

/** Codex tool outputs differ by version: a JSON string with metadata, "Exit code: N … Output:" text, or blocks. */
export function parseOutput(output: unknown): ParsedOutput {
  if (Array.isArray(output)) return { text: contentText(output), exitCode: null, success: null };
  if (isObj(output)) {
    const text = str(output["output"]) ?? str(output["content"]) ?? JSON.stringify(output);
    const code = obj(output["metadata"])?.["exit_code"];
    return {
      text,
      exitCode: typeof code === "number" ? code : null,
      success: typeof output["success"] === "boolean" ? output["success"] : null,
    };
  }
  const raw = typeof output === "string" ? output : output === undefined || output === null ? "" : String(output);
  return (raw.startsWith("{") ? jsonOutput(raw) : null) ?? textOutput(raw);
}

/** A JSON string with `output` and `metadata`; null when the text only happens to start with a brace. */
function jsonOutput(raw: string): ParsedOutput | null {
  try {
    const doc = JSON.parse(raw) as unknown;
    if (isObj(doc) && (typeof doc["output"] === "string" || isObj(doc["metadata"]))) {
      const md = obj(doc["metadata"]);
      const code = md?.["exit_code"];
      return {
        text: str(doc["output"]) ?? "",
        exitCode: typeof code === "number" ? code : null,
        success: null,
        meta: typeof md?.["duration_seconds"] === "number" ? { duration_s: md["duration_seconds"] } : undefined,
      };
    }
  } catch {
    // plain text that happens to start with a brace
  }
  return null;
}

function textOutput(raw: string): ParsedOutput {
  const head = raw.slice(0, 400);
  // A patch that does not apply says so in plain text (0.16x), with no exit code.
  if (PATCH_FAILED.test(head)) return { text: raw, exitCode: null, success: false };
  const exit = EXIT_LINE.exec(head) ?? PROCESS_EXIT.exec(head);
  if (exit) {
    const marker = raw.indexOf("\nOutput:\n");
    const text = marker !== -1 ? raw.slice(marker + 9) : raw;
    return { text, exitCode: Number(exit[1]), success: null };
  }
  return { text: raw, exitCode: null, success: null };
}
