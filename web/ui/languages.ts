/** The highlight.js language for a file, by its extension (no highlight.js here: this is loaded with the page). */
const BY_EXTENSION: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  json: "json",
  jsonl: "json",
  py: "python",
  rs: "rust",
  go: "go",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  css: "css",
  html: "xml",
  xml: "xml",
  svg: "xml",
  md: "markdown",
  yml: "yaml",
  yaml: "yaml",
  sql: "sql",
  java: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  diff: "diff",
  patch: "diff",
};

export function languageOfPath(path: string | undefined): string | undefined {
  const ext = path?.split(".").pop()?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}
