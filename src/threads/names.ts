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
  /^npm err! (code|errno|lifecycle)\b/i,
  /^(error|fail|failed|failure|fatal|exception|traceback.*|✗|×)[:.!]?$/i,
  /has not been read yet/i,
  /has been modified since (it was )?(last )?read/i,
  /string to replace not found/i,
  /could not find the exact text/i,
  /found N matches of the string to replace/i,
  /\buser (doesn't|does not) want to|\brejected by (the )?user|interrupted by user|request interrupted/i,
  /tool use was (rejected|cancelled)/i,
  /^(aborted|cancelled|canceled|timed out)\b/i,
];

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
  return GENERIC_SIGNATURES.some((re) => re.test(s));
}
