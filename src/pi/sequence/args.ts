/**
 * Argument handling for sequence steps (pure). Splitting follows pi's documented shell-like quoting and
 * substitution follows pi's documented prompt-template placeholders, so a step behaves the same whether the user
 * types it or the sequence runs it.
 */

/** Split on unquoted whitespace; single or double quotes group words and are removed. */
export function splitArgs(input: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: '"' | "'" | null = null;
  for (const char of input) {
    if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (/\s/.test(char)) {
      if (current) args.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current) args.push(current);
  return args;
}

// One alternative per documented placeholder: ${N:-default} / ${@:-default} / ${ARGUMENTS:-default},
// ${@:N} / ${@:N:L}, and $N / $@ / $ARGUMENTS.
const PLACEHOLDER = /\$\{(\d+|@|ARGUMENTS):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(\d+|@|ARGUMENTS)/g;

/** Whether any step uses the run's arguments (a placeholder above). */
export function usesArguments(steps: readonly string[]): boolean {
  return steps.some((step) => new RegExp(PLACEHOLDER.source).test(step));
}

/** Arguments as one line the user can type back: quoted where a word has spaces. */
export function joinArgs(args: readonly string[]): string {
  return args.map((arg) => (/\s/.test(arg) || arg === "" ? `"${arg}"` : arg)).join(" ");
}

/**
 * Replace `$1`, `$@`, `$ARGUMENTS`, `${1:-default}`, `${@:-default}`, `${@:N}` and `${@:N:L}` in `content`.
 * Replacements are not scanned again, so an argument that itself contains `$1` stays literal.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(" ");
  return content.replace(
    PLACEHOLDER,
    (
      _match: string,
      defaultTarget: string | undefined,
      fallback: string | undefined,
      sliceStart: string | undefined,
      sliceLength: string | undefined,
      simple: string | undefined,
    ) => {
      if (defaultTarget !== undefined) {
        const value = defaultTarget === "@" || defaultTarget === "ARGUMENTS" ? all : positional(args, defaultTarget);
        return value.length > 0 ? value : (fallback ?? "");
      }
      if (sliceStart !== undefined) {
        // 1-based like the shell; ${@:0} means the same as ${@:1}.
        const start = Math.max(0, Number(sliceStart) - 1);
        const end = sliceLength === undefined ? undefined : start + Number(sliceLength);
        return args.slice(start, end).join(" ");
      }
      if (simple === "@" || simple === "ARGUMENTS") return all;
      return positional(args, simple ?? "");
    },
  );
}

function positional(args: readonly string[], index: string): string {
  return args[Number(index) - 1] ?? "";
}
