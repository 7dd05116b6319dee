/** Flag parsing for every command: `node:util`'s parser, its complaints turned into usage errors. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { errorMessage } from "../common/errors.ts";
import { UsageError } from "./io.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseFlags<O extends Options, P extends boolean = false>(
  argv: string[],
  options: O,
  allowPositionals?: P,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: allowPositionals ?? false, strict: true });
  } catch (error) {
    // node's messages end with advice for scripts ("To specify a positional argument starting with a '-'…").
    throw new UsageError(errorMessage(error).split(". To ")[0]!.replace(/\.$/, ""));
  }
}

/** A positive whole number given for a flag, or undefined when the flag is absent. */
export function positiveInt(
  flag: string,
  value: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(
      `${flag} takes a whole number${max < Number.MAX_SAFE_INTEGER ? ` from 1 to ${max}` : " above 0"}, not '${value}'`,
    );
  return n;
}

/** A whole number ≥ 0 (a position or a step). */
export function naturalInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} takes a whole number of 0 or more, not '${value}'`);
  return n;
}
