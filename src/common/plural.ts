/** Counts in words people read: "1 prompt", "2 prompts", never "1 prompts". */

/** The noun alone, for counts printed with a sign or a thousands separator of their own. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 || n === -1 ? one : many;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${noun(n, one, many)}`;
}

/** As `plural`, with thousands separated ("1,234 events"). */
export function pluralLarge(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${noun(n, one, many)}`;
}
