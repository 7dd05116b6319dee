/**
 * Aider's edits, read from the assistant's text: SEARCH/REPLACE blocks (its `diff` edit format, and the fenced
 * variant of `diff-fenced`), each after the line naming its file. A block with an empty SEARCH part makes a new file.
 * Edits in its `whole` and `udiff` formats are not read: their text stays the assistant's words.
 */

export interface EditBlock {
  /** 1-based line within the text. */
  at: number;
  path: string;
  search: string;
  replace: string;
}

export const SEARCH = /^<{5,9} SEARCH>?\s*$/;
export const DIVIDER = /^={5,9}\s*$/;
export const REPLACE = /^>{5,9} REPLACE\s*$/;

/** The file a block names: the nearest of the three lines before it that is not a fence, as aider finds it. */
function fileNameBefore(lines: readonly string[], at: number): string | null {
  for (let i = at - 1; i >= 0 && i >= at - 3; i--) {
    const raw = lines[i]!.trim();
    if (raw === "" || raw.startsWith("```")) continue;
    const name = raw.replace(/^[#*`\s]+|[*`:\s]+$/g, "");
    return name === "" ? null : name;
  }
  return null;
}

/** The blocks in one reply, in order; a block naming no file edits the file the one before it named. */
export function editBlocks(text: string): EditBlock[] {
  const lines = text.split("\n");
  const out: EditBlock[] = [];
  let file: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH.test(lines[i]!)) continue;
    file = fileNameBefore(lines, i) ?? file;
    const search: string[] = [];
    const replace: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !DIVIDER.test(lines[j]!); j++) search.push(lines[j]!);
    for (j++; j < lines.length && !REPLACE.test(lines[j]!); j++) replace.push(lines[j]!);
    if (j >= lines.length || file === null) break; // cut short: aider refuses it as well
    out.push({ at: i + 1, path: file, search: joined(search), replace: joined(replace) });
    i = j;
  }
  return out;
}

/** Lines as aider keeps a block's part: each ended by a newline. */
export function joined(lines: readonly string[]): string {
  return lines.map((l) => `${l}\n`).join("");
}
