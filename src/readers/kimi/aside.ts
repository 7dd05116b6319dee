/**
 * Kimi CLI's events beside the conversation: a step interrupted or retried, a notification, a hook that blocked,
 * a plan shown, and a side question (`/btw`) with its answer.
 */
import { num, type Obj, str } from "../json.ts";
import type { RawRecord } from "../types.ts";

type Base = { line: number; ts: string | null; key: string };

/** The record an event makes; null when it makes none (a hook that let the call through); undefined: not one of these. */
export function asideRecord(type: string, p: Obj, base: Base): RawRecord | null | undefined {
  switch (type) {
    case "StepInterrupted":
      return { kind: "notice", ...base, level: "warning", text: "The step was interrupted." };
    case "StepRetry": {
      const status = num(p["status_code"]);
      const why = `${str(p["error_type"]) ?? "error"}${status !== undefined ? ` (HTTP ${status})` : ""}`;
      const text = `${why}; retrying, attempt ${num(p["next_attempt"]) ?? "?"} of ${num(p["max_attempts"]) ?? "?"}`;
      return { kind: "notice", ...base, level: "warning", text };
    }
    case "Notification": {
      const severity = str(p["severity"]);
      const level = severity === "error" ? "error" : severity === "warning" ? "warning" : "info";
      const text = [str(p["title"]), str(p["body"])].filter(Boolean).join(": ");
      return { kind: "notice", ...base, level, text, meta: { category: p["category"] ?? null } };
    }
    case "HookResolved": {
      if (p["action"] !== "block") return null;
      const text = `A ${str(p["event"]) ?? ""} hook blocked ${str(p["target"]) ?? "it"}: ${str(p["reason"]) ?? ""}`;
      return { kind: "notice", ...base, level: "warning", text };
    }
    case "PlanDisplay": {
      const meta = { plan_file: p["file_path"] ?? null };
      return { kind: "message", ...base, role: "system", text: str(p["content"]) ?? "", typed: false, meta };
    }
    case "BtwBegin": {
      // Asked by the person, answered beside the conversation (the model's context does not keep it).
      const text = str(p["question"]) ?? "";
      return { kind: "message", ...base, role: "user", text, typed: true, meta: { side_question: true } };
    }
    case "BtwEnd": {
      const error = str(p["error"]);
      if (error) return { kind: "notice", ...base, level: "error", text: error };
      const text = str(p["response"]) ?? "";
      return { kind: "message", ...base, role: "assistant", text, typed: false, meta: { side_question: true } };
    }
    default:
      return undefined;
  }
}
