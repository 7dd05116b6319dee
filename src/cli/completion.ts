/**
 * Shell completions for bash, zsh and fish, made from the commands' own usage texts, so that a flag documented
 * in `--help` completes and one that is not does not: every `--flag` a usage names, with its values when the
 * usage lists them (`--mode hybrid|lexical|vector`) and file names when it takes a PATH, DIR or FILE.
 */
import type { Command } from "./io.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export interface FlagSpec {
  flag: string;
  /** The values it takes, `file` for a path, or null for free text (or none). */
  values: string[] | "file" | null;
}

export interface CommandSpec {
  name: string;
  summary: string;
  flags: FlagSpec[];
  /** Words that may follow the command (`resume verify`, `completion bash`). */
  words: string[];
}

/** Flags every command takes. */
export const GLOBAL_FLAGS: FlagSpec[] = [
  { flag: "--help", values: null },
  { flag: "--color", values: ["auto", "always", "never"] },
];

const FLAG = /(--[a-z][a-z-]*)(?:[ =]([A-Za-z0-9_.|-]+))?/g;

export function commandSpec(command: Command, words: string[] = []): CommandSpec {
  const flags = new Map<string, FlagSpec>();
  for (const m of command.usage.matchAll(FLAG)) {
    const flag = m[1]!;
    const arg = m[2] ?? "";
    const values: FlagSpec["values"] = /^(PATH|DIR|FILE)$/.test(arg)
      ? "file"
      : /^[a-z0-9]+(\|[a-z0-9]+)+$/.test(arg)
        ? arg.split("|")
        : null;
    const known = flags.get(flag);
    if (!known || (known.values === null && values !== null)) flags.set(flag, { flag, values });
  }
  for (const g of GLOBAL_FLAGS) if (!flags.has(g.flag)) flags.set(g.flag, g);
  return { name: command.name, summary: command.summary, flags: [...flags.values()], words };
}

export function completionScript(shell: Shell, specs: readonly CommandSpec[]): string {
  switch (shell) {
    case "bash":
      return bash(specs);
    case "zsh":
      return zsh(specs);
    case "fish":
      return fish(specs);
  }
}

const withValues = (specs: readonly CommandSpec[]) =>
  specs.flatMap((c) => c.flags.filter((f) => f.values !== null).map((f) => ({ command: c.name, ...f })));

function bash(specs: readonly CommandSpec[]): string {
  const names = specs.map((c) => c.name).join(" ");
  const valueCases = withValues(specs).map((f) =>
    f.values === "file"
      ? `    ${f.command}:${f.flag}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`
      : `    ${f.command}:${f.flag}) COMPREPLY=($(compgen -W "${f.values!.join(" ")}" -- "$cur")); return ;;`,
  );
  const flagCases = specs.map(
    (c) =>
      // Flags once a dash is typed; otherwise the words that follow the command (files, through -o default).
      `    ${c.name}) if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "${c.flags.map((f) => f.flag).join(" ")}" -- "$cur")); else COMPREPLY=($(compgen -W "${c.words.join(" ")}" -- "$cur")); fi ;;`,
  );
  return `# cairn completion for bash. Load it with:  source <(cairn completion bash)
_cairn() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd=\${COMP_WORDS[1]}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${names} --help --version" -- "$cur"))
    return
  fi
  case "$cmd:$prev" in
${valueCases.join("\n")}
    *:--color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
  esac
  case "$cmd" in
${flagCases.join("\n")}
  esac
}
complete -o default -F _cairn cairn
`;
}

function zshQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

function zsh(specs: readonly CommandSpec[]): string {
  const commands = specs.map((c) => `    ${zshQuote(`${c.name}:${c.summary.replace(/:/g, "\\:")}`)}`);
  const valueCases = withValues(specs).map((f) =>
    f.values === "file"
      ? `    ${f.command}:${f.flag}) _files; return ;;`
      : `    ${f.command}:${f.flag}) compadd -- ${f.values!.join(" ")}; return ;;`,
  );
  const flagCases = specs.map(
    (c) => `    ${c.name}) compadd -- ${[...c.words, ...c.flags.map((f) => f.flag)].join(" ")} ;;`,
  );
  return `#compdef cairn
# cairn completion for zsh. Load it with:  source <(cairn completion zsh)  (after compinit), or save it as
# _cairn in a folder on $fpath.
_cairn() {
  local -a commands
  commands=(
${commands.join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'cairn command' commands
    return
  fi
  case "\${words[2]}:\${words[CURRENT-1]}" in
${valueCases.join("\n")}
    *:--color) compadd -- auto always never; return ;;
  esac
  case "\${words[2]}" in
${flagCases.join("\n")}
  esac
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _cairn "$@"
elif (( $+functions[compdef] )); then
  compdef _cairn cairn
fi
`;
}

function fishQuote(s: string): string {
  return `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function fish(specs: readonly CommandSpec[]): string {
  const lines = [
    "# cairn completion for fish. Load it with:  cairn completion fish | source",
    "complete -c cairn -f",
    "complete -c cairn -n __fish_use_subcommand -l version -d 'print the version'",
  ];
  for (const c of specs) {
    lines.push(`complete -c cairn -n __fish_use_subcommand -a ${c.name} -d ${fishQuote(c.summary)}`);
    const when = `'__fish_seen_subcommand_from ${c.name}'`;
    for (const w of c.words) lines.push(`complete -c cairn -n ${when} -a ${w}`);
    for (const f of c.flags) {
      const values =
        f.values === "file" ? " -r -F" : Array.isArray(f.values) ? ` -x -a ${fishQuote(f.values.join(" "))}` : "";
      lines.push(`complete -c cairn -n ${when} -l ${f.flag.slice(2)}${values}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
