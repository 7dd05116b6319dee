/**
 * Whether output is colored: `--color=always|never` decides; with `auto` (the default) `FORCE_COLOR` (anything but
 * `0` or `false`) turns color on and `NO_COLOR` off, as Node and most tools read them, and otherwise a terminal on
 * stdout does.
 */
import { UsageError } from "./io.ts";

export const COLOR_CHOICES = ["auto", "always", "never"] as const;
export type ColorChoice = (typeof COLOR_CHOICES)[number];

export function useColor(
  choice: ColorChoice,
  env: Record<string, string | undefined>,
  stdout: { isTTY?: boolean },
): boolean {
  if (choice !== "auto") return choice === "always";
  const force = env["FORCE_COLOR"];
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (env["NO_COLOR"]) return false;
  return stdout.isTTY === true && env["TERM"] !== "dumb";
}

/** Takes `--color`, `--color=WHEN` and `--color WHEN` out of the arguments, wherever they are. */
export function takeColorFlag(argv: readonly string[]): { choice: ColorChoice; rest: string[] } {
  let choice: ColorChoice = "auto";
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    let value: string | undefined;
    if (a.startsWith("--color=")) value = a.slice("--color=".length);
    else if (a === "--color") {
      const next = argv[i + 1];
      value = next !== undefined && (COLOR_CHOICES as readonly string[]).includes(next) ? argv[++i] : "always";
    } else {
      rest.push(a);
      continue;
    }
    if (!(COLOR_CHOICES as readonly string[]).includes(value!))
      throw new UsageError(`--color takes auto, always or never, not '${value}'`);
    choice = value as ColorChoice;
  }
  return { choice, rest };
}
