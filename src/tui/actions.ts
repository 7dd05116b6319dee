/**
 * The keys that act on what is selected rather than move: copy, export, resume, the web path. Each returns what
 * the footer should say, or null for nothing.
 */
import type { BrowserAction as Action } from "./browser.ts";

/** The brief on the Brief tab, else the selected line's citation, else (left pane) the session id. */
const copy: Action = (b, host) => {
  let text: string | null;
  const ai = b.aiResume?.sessionId === b.open?.session_id ? b.aiResume?.result : null;
  if (b.focus === "right" && b.tab === "brief") text = ai?.text ?? b.brief?.text ?? null;
  else if (b.focus === "right") {
    const target = b.selectedTarget();
    text = target ? `[e:${target}]` : null;
  } else text = b.selectedSessionId();
  if (!text) return null;
  const where = host.copy(text);
  return `copied ${text.length > 40 ? `${text.length} characters` : text} (${where})`;
};

const exportSession: Action = async (b, host) =>
  b.open ? `exported to ${await host.exportSession(b.open.session_id)}` : null;

/** Asks before resuming: only pi can be started with the brief here; for the others, the command that starts them. */
const resume: Action = (b) => {
  const id = b.open?.session_id ?? b.selectedSessionId();
  if (!id) return null;
  const provider = b.open?.provider ?? b.sessions.find((s) => s.session_id === id)?.provider;
  const argv = provider === "pi" ? [id, "--exec", "pi"] : [id, "--print-command", provider ?? "claude"];
  b.confirm = { prompt: `cairn resume ${argv.join(" ")}`, argv };
  return null;
};

/** The web page's view of what is selected: a path on the URL `cairn serve` prints (its port and token are its own). */
const webPath: Action = (b, host) => {
  const id = b.open?.session_id ?? b.selectedSessionId();
  if (!id) return null;
  const target = b.selectedTarget();
  const at = target ? `?at=${target}` : "";
  const right = b.focus === "right";
  const path =
    right && b.tab === "brief"
      ? `/s/${id}/brief`
      : right && b.tab === "conversation"
        ? `/s/${id}/conversation${at}`
        : `/s/${id}${at}`;
  return `web view: ${path} on the URL 'cairn serve' prints (copied: ${host.copy(path)})`;
};

export const ACTIONS: Record<string, Action> = { y: copy, e: exportSession, r: resume, w: webPath };
