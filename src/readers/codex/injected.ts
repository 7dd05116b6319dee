/** Context Codex injects in user-role messages (environment, instructions, AGENTS.md): never a typed prompt. */

const INJECTED_PREFIXES = [
  "<environment_context>",
  "<user_instructions>",
  "<permissions instructions>",
  "# AGENTS.md instructions for ",
  "<INSTRUCTIONS>",
  "<user_shell_command>",
  "<turn_aborted>",
];

export function isInjected(text: string): boolean {
  const t = text.trimStart();
  return INJECTED_PREFIXES.some((p) => t.startsWith(p));
}

/** The tag (or `AGENTS.md`) an injected text opens with, to say what kind of context it was. */
export function injectedKind(text: string): string {
  const m = /^\s*(?:<([a-z_ ]+)>|# (AGENTS\.md))/.exec(text);
  return m?.[1] ?? m?.[2] ?? "context";
}
