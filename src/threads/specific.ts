/**
 * Which join keys may link sessions of different repositories. Inside one repository two rare shared keys are
 * enough; across repositories the same error text or branch name is often chance (two projects hitting the same
 * missing package, both on `fix/login`), so only facts that name one piece of work count there: a file of one of
 * the two repositories, or an error that names a project file, a symbol or a test.
 */
import { keyOf, kindOf } from "./rarity.ts";
import type { WorkUnit } from "./units.ts";

/** A source, config or data file by name: `add.test.ts`, `./db`, `src/cart/total.py`. */
const FILE_TOKEN =
  /(?:^|[\s'"`(:])(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]sx?|py|rs|go|java|kt|rb|php|cs|cc|cpp|c|h|hpp|swift|vue|svelte|sql|sh|css|scss|html|json|ya?ml|toml)\b|['"`]\.{1,2}\/[\w@./-]+['"`]/i;
/** A code symbol: `camelCase`, `PascalCaseName`, `snake_case`, `obj.method`, `call()`. */
const SYMBOL_TOKEN =
  /\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[a-z][a-z\d]*_[a-z\d_]+\b|\b[a-z_]\w*\.[a-z_]\w*\(|\b\w{3,}\(\)/;
/** A test runner's failure line that names the test: `FAIL auth.test.ts > refreshes`, `✗ adds two numbers`. */
const FAILING_TEST = /^(?:FAIL|FAILED|✗|×|not ok \d*)\s+\S.{3,}/;

export function isSpecificSignature(signature: string): boolean {
  const s = signature.trim();
  return FILE_TOKEN.test(s) || SYMBOL_TOKEN.test(s) || FAILING_TEST.test(s);
}

/**
 * Whether a join key may link two units of different repositories: an error that names a file, symbol or test,
 * or a file inside one of the two working directories (a library's file its app also reached into). A file outside
 * both (`~/.config/…`) says nothing about either piece of work.
 */
export function linksRepositories(entityId: string, a: WorkUnit, b: WorkUnit): boolean {
  switch (kindOf(entityId)) {
    case "file": {
      const path = keyOf(entityId);
      return [a.root.cwd, b.root.cwd].some((cwd) => cwd !== null && within(path, cwd));
    }
    case "error_signature":
      return isSpecificSignature(keyOf(entityId));
    default:
      return false;
  }
}

/**
 * Whether two units worked in the same repository: the same remote when both know theirs, else one working
 * directory inside the other (a package of a monorepo is the repository's work). Unknown counts as the same:
 * nothing says they differ.
 */
export function sameRepository(a: WorkUnit, b: WorkUnit): boolean {
  const ra = a.root.repository;
  const rb = b.root.repository;
  if (ra && rb) return normaliseRemote(ra) === normaliseRemote(rb);
  const ca = a.root.cwd;
  const cb = b.root.cwd;
  if (!ca || !cb) return true;
  return within(ca, cb) || within(cb, ca);
}

function within(dir: string, root: string): boolean {
  const r = root.replace(/\/+$/, "");
  return dir === r || dir.startsWith(`${r}/`);
}

/** `git@github.com:o/r.git` and `https://github.com/o/r` are one repository. */
function normaliseRemote(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\.git$/, "")
    .replace(/^[a-z+]+:\/\/(?:[^@/]+@)?/, "")
    .replace(/^[^@/]+@([^:]+):/, "$1/")
    .replace(/\/+$/, "");
}
