/** The viewport page: wires the connection to the DOM and the buttons to commands. */
import type { CommandReply, LiveView } from "../src/live/protocol.ts";
import { type ConnectionState, connect } from "./connection.ts";
import { renderPrompts, renderTranscript } from "./render.ts";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const transcript = $<HTMLElement>("transcript");
const prompts = $<HTMLElement>("prompts");
const connectionPill = $<HTMLElement>("connection");
const sessionInfo = $<HTMLElement>("session");
const composer = $<HTMLFormElement>("composer");
const message = $<HTMLTextAreaElement>("message");
const send = $<HTMLButtonElement>("send");
const interrupt = $<HTMLButtonElement>("interrupt");
const clear = $<HTMLButtonElement>("clear");
const newSession = $<HTMLButtonElement>("new-session");
const toast = $<HTMLElement>("toast");

const nodes = new Map<string, HTMLElement>();
let latest: LiveView | null = null;
let frame = 0;
let toastTimer: ReturnType<typeof setTimeout> | undefined;

function notify(text: string): void {
  toast.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.textContent = "";
  }, 6_000);
}

/** Reports a refused command; a lost prompt race is expected with several tabs and is not an error. */
function report(reply: CommandReply): void {
  if (reply.kind === "ack") return;
  if (reply.code === "already_resolved") return;
  notify(`${reply.code}: ${reply.message}`);
}

function render(): void {
  frame = 0;
  const view = latest;
  if (!view) return;
  renderTranscript(transcript, view, nodes);
  renderPrompts(prompts, view.openPrompts, (prompt, response) => {
    void connection
      .send({
        type: "respond_prompt",
        promptId: prompt.id,
        response,
        ...(connection.epoch ? { expectEpoch: connection.epoch } : {}),
      })
      .then(report);
  });
  const streaming = view.turnId !== null;
  interrupt.disabled = !streaming;
  send.disabled = streaming;
  document.body.dataset["streaming"] = String(streaming);
  const parts = [view.driver, view.model, view.cwd].filter((p): p is string => Boolean(p));
  sessionInfo.textContent = parts.join(" · ");
}

const connection = connect(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`, {
  onView(view) {
    latest = view;
    if (!frame) frame = requestAnimationFrame(render);
  },
  onState(state: ConnectionState, detail: string) {
    connectionPill.dataset["state"] = state;
    connectionPill.textContent = detail ? `${state} (${detail})` : state;
    connectionPill.title = detail;
  },
});

composer.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = message.value.trim();
  if (!text) return;
  send.disabled = true;
  void connection
    .send({ type: "send_message", text, ...(connection.epoch ? { expectEpoch: connection.epoch } : {}) })
    .then((reply) => {
      if (reply.kind === "ack") message.value = "";
      else send.disabled = false;
      report(reply);
    });
});
message.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    composer.requestSubmit();
  }
});
interrupt.addEventListener("click", () => {
  void connection.send({ type: "interrupt" }).then(report);
});
clear.addEventListener("click", () => {
  if (!confirm("Clear this session? The running turn is stopped and open prompts are cancelled.")) return;
  void connection
    .send({ type: "clear_session", ...(connection.epoch ? { expectEpoch: connection.epoch } : {}) })
    .then(report);
});
newSession.addEventListener("click", () => {
  void connection.send({ type: "new_session" }).then(report);
});
