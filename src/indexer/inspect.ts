/** Reads transcript files whole, in memory, without a database: what `cairn inspect` shows. */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { type Topology, TopologyCollector } from "../topology/collect.ts";
import type { Problem, Provider } from "../topology/types.ts";
import { readTranscriptFile } from "./read-file.ts";
import { findTranscripts } from "./scan.ts";

export interface InspectedFile {
  path: string;
  provider: Provider | null;
  bytes: number;
  lines: number;
}

export interface InspectResult extends Topology {
  files: InspectedFile[];
  problems: Problem[];
}

export function inspectPaths(paths: readonly string[], cwd: string): InspectResult {
  const collector = new TopologyCollector();
  const problems: Problem[] = [];
  const files: InspectedFile[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (!existsSync(abs)) throw new Error(`no such file or folder: ${p}`);
    for (const file of findTranscripts(abs)) {
      const size = statSync(file).size;
      const res = readTranscriptFile(file, {
        takeUnterminated: true,
        onBatch(batch, batchProblems) {
          collector.add(batch);
          problems.push(...batchProblems);
        },
      });
      if (res.state === null) {
        if (size > 0)
          problems.push({
            source_file: file,
            source_line: 1,
            reason: "not a transcript of any agent cairn reads",
            excerpt: "",
          });
      } else if (res.pendingBytes > 0) {
        problems.push({
          source_file: file,
          source_line: res.line,
          reason: "incomplete last line (no newline, not valid JSON)",
          excerpt: "",
        });
      }
      files.push({
        path: file,
        provider: res.state?.provider ?? null,
        bytes: size,
        lines: res.line - 1 + (res.pendingBytes > 0 ? 1 : 0),
      });
    }
  }
  return { ...collector.result(), files, problems };
}
