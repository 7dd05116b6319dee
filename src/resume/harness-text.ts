/**
 * What an agent's harness wraps around a compaction summary: the preamble saying the session goes on from an
 * earlier one, reminder blocks, and the instructions to the model after it (where the transcript is, "continue
 * without asking", how to read the messages kept after it). They tell the next agent nothing about the work and
 * would be quoted into every brief word for word; the summary itself is kept as written.
 */
const REMINDER_BLOCK = /<system-reminder>[\s\S]*?<\/system-reminder>\n?/g;

/** Lines that are the harness speaking to the model (Claude Code's wording, old and new). */
const HARNESS_LINES: readonly RegExp[] = [
  /^This session is being continued from a previous conversation\b/,
  /^If you need specific details from before compaction\b/,
  /^(?:Please )?[Cc]ontinue the conversation from where (?:it|we|you) left (?:it )?off\b/,
  /^The messages after this summary are the most recent messages\b/,
  /^Summary:\s*$/,
];

export function summaryBody(text: string): string {
  const lines = text.replace(REMINDER_BLOCK, "").split("\n");
  const kept = lines.filter((l) => !HARNESS_LINES.some((re) => re.test(l.trim())));
  const body = kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  // A summary that was nothing but harness text stays as it was rather than vanish.
  return body === "" ? text : body;
}
