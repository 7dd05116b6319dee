/**
 * The folder a Gemini CLI chat was for. Its records name the project only by a hash (`projectHash`, SHA-256 of the
 * folder); the CLI's own files beside the chats say which folder it is: `tmp/<short name>/.project_root` holds the
 * folder, and `projects.json` maps each folder to its short name (`{"projects": {"/path": "name"}}`). A chat under a
 * folder named by the hash itself (releases before the short names) is matched by hashing the registry's folders.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** A folder as the CLI writes it: absolute, POSIX or Windows. */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/])/;

export interface ProjectFiles {
  /** `<tmp>/<project>/.project_root`. */
  marker: string;
  /** `<.gemini>/projects.json`. */
  registry: string;
  /** The project folder's name under `tmp/` (a short name, or the folder's hash). */
  name: string;
}

/** Where the files naming a chat's project are, from the chat's path (`…/tmp/<project>/chats/…`); null elsewhere. */
export function projectFiles(path: string): ProjectFiles | null {
  const m = /^(.*)[\\/]tmp[\\/]([^\\/]+)[\\/]chats[\\/]/.exec(path);
  if (!m?.[1] || !m[2]) return null;
  const project = join(m[1], "tmp", m[2]);
  return { marker: join(project, ".project_root"), registry: join(m[1], "projects.json"), name: m[2] };
}

/** The files `projectFolder` reads, for the reader's `context`. */
export function projectContext(path: string): string[] {
  const files = projectFiles(path);
  return files ? [files.marker, files.registry] : [];
}

/** The project folder of the chat at `path`, from the files `projectContext` named (their text by path). */
export function projectFolder(path: string, context: Readonly<Record<string, string>>): string | null {
  const files = projectFiles(path);
  if (!files) return null;
  const marked = context[files.marker]?.trim();
  if (marked && ABSOLUTE.test(marked)) return marked;
  const registry = registryOf(context[files.registry]);
  for (const [folder, name] of Object.entries(registry)) if (name === files.name) return folder;
  if (/^[0-9a-f]{64}$/.test(files.name))
    for (const folder of Object.keys(registry)) if (sha256(folder) === files.name) return folder;
  return null;
}

function registryOf(text: string | undefined): Record<string, string> {
  if (!text) return {};
  try {
    const doc = JSON.parse(text) as { projects?: unknown };
    const projects = doc.projects;
    if (typeof projects !== "object" || projects === null || Array.isArray(projects)) return {};
    return Object.fromEntries(
      Object.entries(projects).filter((e): e is [string, string] => typeof e[1] === "string" && ABSOLUTE.test(e[0])),
    );
  } catch {
    return {};
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
