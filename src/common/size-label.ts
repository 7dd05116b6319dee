/** How much text there is, as people read it beside a folded output: "72 chars", "4.1 kB", "1.2 MB". */
export function sizeLabel(chars: number): string {
  if (chars < 1000) return `${chars} chars`;
  return chars < 1_000_000 ? `${(chars / 1000).toFixed(1)} kB` : `${(chars / 1e6).toFixed(1)} MB`;
}
