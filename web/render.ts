/**
 * Renders a `LiveView` into the page. Every string from the agent, a tool or a prompt is untrusted: it only
 * ever reaches the DOM through `textContent` and attribute setters, never as markup.
 * Elements are kept per transcript item and updated in place, so streaming text does not rebuild the page.
 */
import type { LiveView, PendingPrompt, PromptResponse, TranscriptItem } from "../src/live/protocol.ts";

type Attrs = Record<string, string>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

export function show(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

function itemKey(item: TranscriptItem, index: number): string {
  switch (item.kind) {
    case "user":
      return `user:${item.turnId}`;
    case "assistant":
      return `assistant:${item.messageId}`;
    case "tool":
      return `tool:${item.toolUseId}`;
    case "notice":
      return `notice:${index}`;
  }
}

function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

function buildItem(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case "user":
      return el("div", { class: "item user" });
    case "assistant":
      return el("div", { class: "item assistant" });
    case "notice":
      return el("div", { class: "item notice" });
    case "tool": {
      const details = el("details", { class: "item tool" });
      details.append(
        el("summary", {}, el("span", { class: "name" }), el("span", { class: "badge" })),
        el("pre", { class: "input" }),
        el("pre", { class: "output" }),
      );
      return details;
    }
  }
}

function updateItem(node: HTMLElement, item: TranscriptItem): void {
  switch (item.kind) {
    case "user":
    case "notice":
      setText(node, item.text);
      return;
    case "assistant":
      setText(node, item.text);
      node.dataset["status"] = item.status;
      return;
    case "tool": {
      setText(node.querySelector(".name")!, item.toolName);
      const badge = node.querySelector<HTMLElement>(".badge")!;
      setText(badge, item.status);
      badge.dataset["status"] = item.status;
      node.dataset["status"] = item.status;
      setText(node.querySelector(".input")!, show(item.input));
      setText(node.querySelector(".output")!, show(item.output));
      return;
    }
  }
}

export function renderTranscript(root: HTMLElement, view: LiveView, nodes: Map<string, HTMLElement>): void {
  const stickToBottom = root.scrollHeight - root.scrollTop - root.clientHeight < 40;
  const wanted: HTMLElement[] = [];
  const seen = new Set<string>();
  if (view.droppedItems > 0) {
    let dropped = nodes.get("dropped");
    if (!dropped) {
      dropped = el("div", { class: "dropped" });
      nodes.set("dropped", dropped);
    }
    setText(dropped, `${view.droppedItems} earlier items are not shown`);
    wanted.push(dropped);
    seen.add("dropped");
  }
  view.transcript.forEach((item, index) => {
    const key = itemKey(item, index);
    seen.add(key);
    let node = nodes.get(key);
    if (!node) {
      node = buildItem(item);
      node.dataset["key"] = key;
      nodes.set(key, node);
    }
    updateItem(node, item);
    wanted.push(node);
  });
  for (const [key, node] of nodes) {
    if (!seen.has(key)) {
      node.remove();
      nodes.delete(key);
    }
  }
  // Reorder only when needed: appending is the common case.
  wanted.forEach((node, i) => {
    if (root.children[i] !== node) root.insertBefore(node, root.children[i] ?? null);
  });
  if (stickToBottom) root.scrollTop = root.scrollHeight;
}

export type Answer = (prompt: PendingPrompt, response: PromptResponse) => void;

function permissionCard(prompt: PendingPrompt, answer: Answer): HTMLElement {
  const card = el(
    "div",
    { class: "prompt", "data-prompt-id": prompt.id, "data-kind": prompt.kind },
    el("h2", {}, prompt.title ?? `Allow ${prompt.toolName}?`),
    el("pre", { class: "prompt-input" }, show(prompt.input)),
  );
  // The same order on every tab, always: Deny first, then Allow (claude-code#74475 came from differing orders).
  const deny = el("button", { type: "button", class: "deny" }, "Deny");
  const allow = el("button", { type: "button", class: "allow" }, "Allow");
  const disable = (): void => {
    deny.disabled = true;
    allow.disabled = true;
  };
  deny.addEventListener("click", () => {
    disable();
    answer(prompt, { kind: "tool_permission", allow: false });
  });
  allow.addEventListener("click", () => {
    disable();
    answer(prompt, { kind: "tool_permission", allow: true });
  });
  card.append(el("div", { class: "actions" }, deny, allow));
  if (prompt.defaultToNo) queueMicrotask(() => deny.focus());
  return card;
}

function questionCard(prompt: PendingPrompt, answer: Answer): HTMLElement {
  const form = el("form", { class: "prompt", "data-prompt-id": prompt.id, "data-kind": prompt.kind });
  form.append(el("h2", {}, prompt.title ?? "The agent has a question"));
  const questions = prompt.questions ?? [];
  questions.forEach((q, qi) => {
    const set = el("fieldset", {}, el("legend", {}, q.header ? `${q.header}: ${q.question}` : q.question));
    const type = q.multiSelect ? "checkbox" : "radio";
    q.options.forEach((option, oi) => {
      const input = el("input", { type, name: `q${qi}`, value: option.label });
      if (!q.multiSelect && oi === 0) input.required = true;
      const label = el("label", {}, input, ` ${option.label}`);
      if (option.description) label.append(el("span", { class: "hint" }, ` — ${option.description}`));
      set.append(label);
    });
    set.append(el("label", {}, "Other: ", el("input", { type: "text", name: `q${qi}-other` })));
    form.append(set);
  });
  const submit = el("button", { type: "submit", class: "allow" }, "Answer");
  form.append(el("div", { class: "actions" }, submit));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const answers: Record<string, string> = {};
    questions.forEach((q, qi) => {
      const other = String(data.get(`q${qi}-other`) ?? "").trim();
      const picked = data.getAll(`q${qi}`).map(String);
      answers[q.question] = other || picked.join(", ");
    });
    submit.disabled = true;
    answer(prompt, { kind: "ask_user_question", answers });
  });
  // An "Other" answer makes the radio choice optional.
  form.addEventListener("input", () => {
    questions.forEach((q, qi) => {
      if (q.multiSelect) return;
      const other = form.querySelector<HTMLInputElement>(`input[name="q${qi}-other"]`);
      const first = form.querySelector<HTMLInputElement>(`input[name="q${qi}"]`);
      if (other && first) first.required = other.value.trim() === "";
    });
  });
  return form;
}

export function renderPrompts(root: HTMLElement, prompts: PendingPrompt[], answer: Answer): void {
  const open = new Set(prompts.map((p) => p.id));
  for (const card of [...root.querySelectorAll<HTMLElement>("[data-prompt-id]")]) {
    if (!open.has(card.dataset["promptId"] ?? "")) card.remove();
  }
  for (const prompt of prompts) {
    if (root.querySelector(`[data-prompt-id="${CSS.escape(prompt.id)}"]`)) continue;
    root.append(prompt.kind === "tool_permission" ? permissionCard(prompt, answer) : questionCard(prompt, answer));
  }
}
