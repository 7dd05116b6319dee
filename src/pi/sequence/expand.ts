/**
 * Template and skill steps are expanded from their files at the moment they run, never from stored text: the file
 * named by the command's `sourceInfo.path` is read again for every execution, so an edit on disk shows up in the
 * next iteration without `/reload`. The output matches what pi produces when the user types the command.
 */
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { PiHost } from "../host.ts";
import { splitArgs, substituteArgs } from "./args.ts";

/** A prompt template's body with the step's arguments substituted. */
export async function expandTemplate(host: PiHost, sourcePath: string, args: string): Promise<string> {
  const { body } = host.parseFrontmatter(await readFile(sourcePath, "utf8"));
  return substituteArgs(body, splitArgs(args));
}

/**
 * A skill invocation in pi's skill-block format (`<skill name location>…</skill>`, then the arguments), which pi's
 * TUI renders as a skill call.
 */
export async function expandSkill(
  host: PiHost,
  commandName: string,
  sourcePath: string,
  args: string,
): Promise<string> {
  const body = host.stripFrontmatter(await readFile(sourcePath, "utf8")).trim();
  const name = commandName.replace(/^skill:/, "");
  const block = `<skill name="${name}" location="${sourcePath}">\nReferences are relative to ${dirname(sourcePath)}.\n\n${body}\n</skill>`;
  return args.trim() ? `${block}\n\n${args.trim()}` : block;
}
