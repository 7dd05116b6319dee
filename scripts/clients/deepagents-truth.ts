/**
 * The truth of a Deep Agents Code fixture. Its database holds LangGraph's checkpoints, Python objects packed as
 * MessagePack: they are unpacked here by LangGraph's own serializer, run in the virtual environment the harness
 * installed the CLI into (so nothing of cairn's reader takes part), and counted from what it gives back.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { cacheDir } from "./install.ts";

/** Prints one JSON line per message write and per compaction, in step order, with its thread and namespace. */
const DUMP = `
import json, sqlite3, sys
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
serde = JsonPlusSerializer()
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT thread_id, checkpoint_ns, channel, type, value FROM writes WHERE channel IN ('messages', '_summarization_event') ORDER BY thread_id, checkpoint_ns, checkpoint_id, task_id, idx")
for thread, ns, channel, typ, value in rows:
    value = serde.loads_typed((typ, value))
    if channel == "_summarization_event":
        if value:
            print(json.dumps({"thread": thread, "ns": ns, "compaction": value["cutoff_index"]}))
        continue
    for m in value if isinstance(value, list) else [value]:
        artifact = getattr(m, "artifact", None)
        print(json.dumps({"thread": thread, "ns": ns, "type": m.type, "id": m.id, "text": m.content if isinstance(m.content, str) else "",
            "source": m.additional_kwargs.get("lc_source"), "calls": [[c["id"], c["name"]] for c in getattr(m, "tool_calls", [])],
            "status": getattr(m, "status", None), "exit": artifact.get("exit_code") if isinstance(artifact, dict) else None}))
`;

export interface DeepAgentsTally {
  prompts: string[];
  call(id: string, name: string): boolean;
  failedResults: number;
  subagents: number;
  compactions: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the dump is read loosely, apart from cairn's typed readers
type Rec = Record<string, any>;

/**
 * Prompts: human messages of a thread's own namespace with a task marker and no `lc_source` (dcode's notices);
 * calls: an AI message's `tool_calls`; failures: tool messages with `status` `error` or a non-zero `exit_code`;
 * subagents: namespaces other than the thread's; compactions: summarization events (each write one). A message counts once by its id
 * (a forked subagent starts from copies of its parent's).
 */
export function deepagentsTruth(home: string, t: DeepAgentsTally, isTyped: (text: string) => boolean): void {
  const python = join(cacheDir(), "deepagents", basename(dirname(home)), "bin", "python");
  const dbs = [join(home, ".deepagents", ".state", "sessions.db")].filter((p) => existsSync(p));
  if (dbs.length > 0 && !existsSync(python)) throw new Error(`deepagents truth needs its CLI installed (${python})`);
  for (const db of dbs) {
    const out = execFileSync(python, ["-c", DUMP, db], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const seen = new Set<string>();
    const spaces = new Set<string>();
    for (const line of out.split("\n").filter((l) => l !== "")) {
      const m = JSON.parse(line) as Rec;
      if (m["ns"] !== "") spaces.add(`${m["thread"]}#${m["ns"]}`);
      // Each event is written once (a write's key is its step, task and index); its summary message has no id.
      if (m["compaction"] !== undefined) {
        t.compactions++;
        continue;
      }
      const key = `${m["thread"]}#${m["id"]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (m["type"] === "human" && m["ns"] === "" && !m["source"] && isTyped(m["text"])) t.prompts.push(m["text"]);
      for (const [id, name] of m["calls"] as [string, string][]) t.call(`${m["thread"]}#${id}`, name);
      if (m["type"] === "tool" && (m["status"] === "error" || (m["exit"] !== null && m["exit"] !== 0)))
        t.failedResults++;
    }
    t.subagents += spaces.size;
  }
}
