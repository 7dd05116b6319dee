/**
 * Join keys ruled out by their name alone, at any index size: frequency cannot tell that `package.json` is
 * ubiquitous when the index holds three sessions, but every project has one and agents read it to get their
 * bearings, so two sessions touching it says nothing about their work. The same holds for default branches and
 * for error lines that name only an exit code or the agent's own tool harness.
 */

/** Base names (lower case) of manifests, lockfiles, configuration and docs that nearly every session touches. */
const UBIQUITOUS_FILES = new Set([
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.json",
  "deno.jsonc",
  "deno.lock",
  "jsconfig.json",
  "biome.json",
  "biome.jsonc",
  "turbo.json",
  "nx.json",
  "lerna.json",
  ".npmrc",
  ".nvmrc",
  ".node-version",
  "cargo.toml",
  "cargo.lock",
  "rust-toolchain.toml",
  "go.mod",
  "go.sum",
  "go.work",
  "pyproject.toml",
  "poetry.lock",
  "uv.lock",
  "pipfile",
  "pipfile.lock",
  "requirements.txt",
  "setup.py",
  "setup.cfg",
  "gemfile",
  "gemfile.lock",
  "composer.json",
  "composer.lock",
  "pom.xml",
  "build.gradle",
  "settings.gradle",
  "makefile",
  "dockerfile",
  "docker-compose.yml",
  "docker-compose.yaml",
  "compose.yml",
  "compose.yaml",
  "flake.nix",
  "flake.lock",
  ".tool-versions",
  "mise.toml",
  ".gitignore",
  ".gitattributes",
  ".gitmodules",
  ".editorconfig",
  ".dockerignore",
  ".prettierignore",
  ".eslintignore",
  "agents.md",
  "claude.md",
  "gemini.md",
]);

/** Name patterns of the same sort: variants of READMEs, licences, tool configs and environment files. */
const UBIQUITOUS_FILE_PATTERNS: readonly RegExp[] = [
  /^(readme|changelog|license|licence|contributing|code_of_conduct|security|authors|notice)(\.[\w-]+)?$/,
  /^tsconfig(\.[\w-]+)*\.json$/,
  /^(\.eslintrc|\.prettierrc|\.babelrc|\.swcrc)(\.[\w-]+)?$/,
  /^(eslint|prettier|babel|vite|vitest|jest|webpack|rollup|tsup|esbuild|tailwind|postcss|next|svelte|astro|playwright|cypress)\.config\.[cm]?[jt]s$/,
  /^\.env(\.[\w-]+)?$/,
];

/** Scratch and device locations: `/tmp/out.txt` in one session has nothing to do with `/tmp/out.txt` in another. */
const SCRATCH_DIRS = new Set(["/tmp", "/var/tmp", "/private/tmp", "/dev", "/proc", "/sys"]);

/** Branches that most work happens on, whatever the work is. */
const DEFAULT_BRANCHES = new Set([
  "main",
  "master",
  "trunk",
  "develop",
  "development",
  "dev",
  "head",
  "default",
  "stable",
  "staging",
  "production",
  "gh-pages",
]);

/** Error signatures that name an exit code or the agent harness, not a failure of the work itself. */
const GENERIC_SIGNATURES: readonly RegExp[] = [
  /^(command|process) (exited|completed|failed) with (exit )?code N\b/i,
  /^exit (code|status):? N$/i,
  /\bexit status N$/i,
  /^[\w. -]{1,40} failed$/i,
  /^error: command failed\b/i,
  /^npm (err!|error) (code|errno|lifecycle)\b/i,
  /^(error|fail|failed|failure|fatal|exception|traceback.*|✗|×)[:.!]?$/i,
  /has not been read yet/i,
  /has been modified since (it was )?(last )?read/i,
  /string to replace not found/i,
  /could not find the exact text/i,
  /found N matches of the string to replace/i,
  /\buser (doesn't|does not) want to|\brejected by (the )?user|interrupted by user|request interrupted/i,
  /tool use was (rejected|cancelled)/i,
  /^(aborted|cancelled|canceled|timed out)\b/i,
  // Edit tools' mismatch messages (OpenCode, Kilo, Cline and others): the same words whatever the file was.
  /\bmust match exactly\b/i,
  /\b(old_?string|old_?text|search block|search string)\b.{0,40}\bnot found\b/i,
  /\bcould not find (old_?string|old_?text)\b/i,
  // The shell's own refusals: they name the tool that was missing or the file that was locked, not the work.
  /\bcommand not found\b|\bis not recognized as an internal or external command\b/i,
  /\bpermission denied\b|\boperation not permitted\b/i,
];

/**
 * Words that say something failed without saying what: a signature made only of these, exit codes and the `N`
 * placeholders normalisation leaves ("N.N npm error", "error TSN", `"status": "error",`) names no failure.
 */
const VAGUE_WORDS = new Set(
  (
    "error errors err warning warn fatal fail failed failure failures exception panic abort aborted npm npx yarn " +
    "pnpm bun node deno python pip cargo go bash sh zsh shell code exit exited status command process returned " +
    "with without not no such file files directory dir or and the a an of to in on at is was be been has have " +
    "does do did exist exists cannot could unable invalid unknown unexpected line col column true false null " +
    "undefined none nan tsn errno eacces enoent eperm eexist eisdir enotdir signal killed timeout timed out " +
    "message result output stderr stdout see above below details info debug trace stack"
  ).split(" "),
);
/** Fewer letters than this outside the vague words and placeholders: the signature names nothing. */
const MIN_INFORMATIVE_LETTERS = 4;

export function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

/** Whether a file (by its normalised path) never joins sessions because of its name or place. */
export function isUbiquitousFile(path: string): boolean {
  // A path the agent gave without a known working directory names a different file in every project.
  if (!path.startsWith("/") && !path.startsWith("~")) return true;
  const base = baseName(path).toLowerCase();
  if (UBIQUITOUS_FILES.has(base)) return true;
  if (UBIQUITOUS_FILE_PATTERNS.some((re) => re.test(base))) return true;
  const dir = path.slice(0, Math.max(0, path.lastIndexOf("/")));
  if (SCRATCH_DIRS.has(dir) || /^\/(dev|proc|sys)\//.test(path)) return true;
  // The repository's own bookkeeping (`.git/COMMIT_EDITMSG`, `.git/config`) is the same for every piece of work.
  return path.includes("/.git/");
}

export function isDefaultBranch(name: string): boolean {
  return DEFAULT_BRANCHES.has(name.toLowerCase());
}

export function isGenericSignature(signature: string): boolean {
  const s = signature.trim();
  if (s.replace(/[^\p{L}]/gu, "").length < 6) return true;
  if (GENERIC_SIGNATURES.some((re) => re.test(s))) return true;
  return informativeLetters(s) < MIN_INFORMATIVE_LETTERS;
}

/** Letters in the words of a signature that are neither vague words nor placeholders (`N`, `TSN`, `ENN`). */
function informativeLetters(signature: string): number {
  let n = 0;
  for (const word of signature.match(/\p{L}[\p{L}\d_]*/gu) ?? []) {
    const lower = word.toLowerCase();
    if (VAGUE_WORDS.has(lower) || /^[A-Z]*N$/.test(word)) continue;
    n += word.replace(/[^\p{L}]/gu, "").length;
  }
  return n;
}
