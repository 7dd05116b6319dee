/** The agents cairn reads, as help texts name them: from the readers' registry, never typed out again. */
import { rootsWithoutOverrides } from "../readers/roots.ts";
import { providerCell } from "./format.ts";

export { AGENT_NAMES, PROVIDER_CHOICES } from "../readers/agents.ts";

/** The variables that move the agents' folders: `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …. */
export const FOLDER_VARIABLES = rootsWithoutOverrides("~").overrides;

/** One line per agent: its name and the folders cairn reads it from (with ~ for the home folder). */
export function agentFolderLines(indent: string): string[] {
  const byAgent = new Map<string, string[]>();
  for (const r of rootsWithoutOverrides("~").roots)
    byAgent.set(r.provider, [
      ...(byAgent.get(r.provider) ?? []),
      r.listing
        ? `${r.dir} (the folders it lists)`
        : r.search
          ? `${r.dir}/…/${r.search.name} (up to ${r.search.depth} folders deep)`
          : r.dir,
    ]);
  return [...byAgent].map(([provider, dirs]) => `${indent}${providerCell(provider)}  ${dirs.join(", ")}`);
}

/** Words wrapped into lines of at most `width` characters, each after `indent`. */
export function wrapWords(text: string, width: number, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(indent + line);
  return lines.join("\n");
}
