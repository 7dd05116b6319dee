/**
 * `cairn doctor`: whether each agent's transcripts still reach the index, so that an agent update that moves its
 * store or changes its format is loud instead of a reader that stays "healthy" with zero sessions. Per agent: its
 * folders, the files there, the sessions the index holds from them, the versions seen, record types cairn does not
 * know (with an example file:line), files that cannot be read, and files changed since the last index.
 */
import { closeSync, existsSync, openSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, sep } from "node:path";
import { fsReason, rootTranscripts, statTranscript, type Unreadable } from "../indexer/scan.ts";
import type { AgentManifest } from "../readers/agent.ts";
import type { TranscriptRoot } from "../readers/vocabulary.ts";
import type { FileStamp, ReadonlyStore } from "../store/types.ts";
import type { Problem, SessionInfo } from "../topology/types.ts";

export interface UnknownRecordType {
  type: string;
  /** Files it was seen in. */
  files: number;
  /** Where it was first seen: `file:line`. */
  example: string;
}

export interface AgentCheck {
  provider: string;
  name: string;
  folders: Array<{ dir: string; exists: boolean }>;
  /** Transcript files under its folders. */
  files: number;
  /** Sessions the index holds from it. */
  sessions: number;
  /** Versions of the agent (or of its format) its sessions name, newest first. */
  versions: string[];
  unknown_records: UnknownRecordType[];
  /** Lines cairn could not read for another reason (bad JSON, a cut line), in its files. */
  other_problems: number;
  unreadable: Array<{ path: string; reason: string }>;
  /** Transcript files new or changed since the last index, and the newest of them. */
  stale: { files: number; newest: string | null };
  /** What is wrong, in words; empty when nothing is. */
  findings: string[];
}

export interface DoctorAnswer {
  ok: boolean;
  /** Every agent cairn reads, those with something to say first. */
  agents: AgentCheck[];
}

/** What the doctor reads: the registry's agents, where they are looked for, and the index. */
export interface DoctorInputs {
  agents: readonly AgentManifest[];
  roots(agent: AgentManifest): TranscriptRoot[];
  store: Pick<ReadonlyStore, "listSessions" | "problems" | "fileStamps"> | null;
}

const UNKNOWN = /^unknown record type '(.*)'$/;
const EXAMPLES_KEPT = 10;

export function diagnose(inputs: DoctorInputs): DoctorAnswer {
  const sessions = inputs.store?.listSessions({}) ?? [];
  const problems = inputs.store?.problems() ?? [];
  const stamps = inputs.store?.fileStamps() ?? new Map<string, FileStamp>();
  const indexed = inputs.store !== null;
  const agents = inputs.agents.map((agent) => {
    const roots = inputs.roots(agent);
    // Under a folder searched for one file name (HOME, for Aider), only files of that name are the agent's.
    const mine = (path: string) =>
      roots.some(
        (r) => (path === r.dir || path.startsWith(r.dir + sep)) && (!r.search || basename(path) === r.search.name),
      );
    const own = sessions.filter((s) => s.provider === agent.provider);
    const ownFiles = new Set(own.map((s) => s.source_file));
    return checkAgent(agent, roots, {
      sessions: own,
      problems: problems.filter((p) => ownFiles.has(p.source_file) || mine(p.source_file)),
      stamps,
      indexed,
    });
  });
  const noisy = (a: AgentCheck) => a.findings.length > 0 || a.sessions > 0 || a.folders.some((f) => f.exists);
  return {
    ok: agents.every((a) => a.findings.length === 0),
    agents: [...agents.filter(noisy), ...agents.filter((a) => !noisy(a))],
  };
}

interface Known {
  sessions: SessionInfo[];
  problems: Problem[];
  stamps: Map<string, FileStamp>;
  indexed: boolean;
}

function checkAgent(agent: AgentManifest, roots: TranscriptRoot[], known: Known): AgentCheck {
  const unreadableDirs: Unreadable[] = [];
  const found = roots.map((r) => (existsSync(r.dir) ? safeFind(r, unreadableDirs) : null));
  // A folder searched for files of one name (HOME, for Aider's) is there on every machine: the agent's is only
  // where such a file was found.
  const folders = roots.map((r, i) => ({
    dir: r.dir,
    exists: found[i] !== null && (!r.search || found[i]!.length > 0),
  }));
  const files = found.flatMap((f) => f ?? []).filter((f, i, all) => all.indexOf(f) === i);
  const unreadable = [...unreadableDirs.map((u) => ({ path: u.path, reason: u.message })), ...unopenable(files)];
  const stale = staleFiles(files, known.stamps);
  const { types, other } = unknownTypes(known.problems);
  const check: AgentCheck = {
    provider: agent.provider,
    name: agent.name,
    folders,
    files: files.length,
    sessions: known.sessions.length,
    versions: versionsOf(agent, known.sessions),
    unknown_records: types,
    other_problems: other,
    unreadable,
    stale,
    findings: [],
  };
  check.findings = findingsOf(check, roots, known.indexed);
  return check;
}

function safeFind(root: TranscriptRoot, unreadable: Unreadable[]): string[] {
  try {
    return rootTranscripts(root, unreadable);
  } catch (error) {
    unreadable.push({ path: root.dir, message: fsReason(error) });
    return [];
  }
}

/** Files that exist but cannot be opened for reading (permissions, a broken link). */
function unopenable(files: readonly string[]): Array<{ path: string; reason: string }> {
  const out: Array<{ path: string; reason: string }> = [];
  for (const path of files) {
    try {
      closeSync(openSync(path, "r"));
    } catch (error) {
      out.push({ path, reason: fsReason(error) });
    }
  }
  return out;
}

function staleFiles(files: readonly string[], stamps: Map<string, FileStamp>): AgentCheck["stale"] {
  let count = 0;
  let newest: { path: string; mtime: number } | null = null;
  for (const path of files) {
    let mtime: number;
    let size: number;
    try {
      ({ mtimeMs: mtime, size } = statTranscript(path));
    } catch {
      continue;
    }
    const stamp = stamps.get(path);
    if (stamp && !stamp.gone && stamp.mtime_ms === mtime && stamp.size === size) continue;
    count++;
    if (!newest || mtime > newest.mtime) newest = { path, mtime };
  }
  return { files: count, newest: newest?.path ?? null };
}

function unknownTypes(problems: readonly Problem[]): { types: UnknownRecordType[]; other: number } {
  const byType = new Map<string, { files: Set<string>; example: string }>();
  let other = 0;
  for (const p of problems) {
    const m = UNKNOWN.exec(p.reason) ?? (p.reason === "record without a type" ? [p.reason, "(none)"] : null);
    if (!m) {
      other++;
      continue;
    }
    const type = m[1]!;
    const seen = byType.get(type) ?? { files: new Set<string>(), example: `${p.source_file}:${p.source_line}` };
    seen.files.add(p.source_file);
    byType.set(type, seen);
  }
  const types = [...byType]
    .map(([type, v]) => ({ type, files: v.files.size, example: v.example }))
    .sort((a, b) => b.files - a.files || a.type.localeCompare(b.type))
    .slice(0, EXAMPLES_KEPT);
  return { types, other };
}

function versionsOf(agent: AgentManifest, sessions: readonly SessionInfo[]): string[] {
  if (!agent.versionKey) return [];
  const seen = new Set<string>();
  for (const s of sessions) {
    const v = s.meta[agent.versionKey];
    if (typeof v === "string" || typeof v === "number") seen.add(String(v));
  }
  return [...seen].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
}

function findingsOf(c: AgentCheck, roots: readonly TranscriptRoot[], indexed: boolean): string[] {
  const out: string[] = [];
  const present = c.folders.filter((f) => f.exists);
  if (present.length === 0) {
    // The agent's own folder is there but not the one its transcripts go in: it may keep them elsewhere now. A root
    // taking only folders of one name sits in an editor's storage, which every extension and setting shares: that
    // it exists says nothing of this agent.
    const parents = roots.filter((r) => !r.shallow && !r.folder && !r.search).map((r) => dirname(r.dir));
    const home = parents.find((p) => existsSync(p) && entries(p) > 0);
    if (home)
      out.push(
        `${home} exists but holds none of ${c.folders.map((f) => f.dir).join(", ")}: the agent may keep its sessions elsewhere now`,
      );
  } else if (c.files === 0) {
    const other = present.reduce((n, f) => n + entries(f.dir), 0);
    if (other > 0)
      out.push(
        `${present.map((f) => f.dir).join(", ")} hold${present.length === 1 ? "s" : ""} files but none cairn reads as a transcript: the agent's layout may have changed`,
      );
  } else if (indexed && c.sessions === 0 && c.stale.files < c.files)
    out.push(`${c.files} transcript files were read but gave no sessions: the agent's format may have changed`);
  for (const t of c.unknown_records)
    out.push(
      `record type '${t.type}' cairn does not know, in ${t.files} file${t.files === 1 ? "" : "s"} (first at ${t.example})`,
    );
  for (const u of c.unreadable) out.push(`cannot read ${u.path}: ${u.reason}`);
  if (indexed && c.stale.files > 0)
    out.push(
      `${c.stale.files} file${c.stale.files === 1 ? "" : "s"} new or changed since the last index (newest: ${c.stale.newest}): run 'cairn index'`,
    );
  if (!indexed && c.files > 0) out.push(`${c.files} transcript files, no index yet: run 'cairn index'`);
  return out;
}

function entries(dir: string): number {
  try {
    return statSync(dir).isDirectory() ? readdirSync(dir).length : 1;
  } catch {
    return 0;
  }
}
