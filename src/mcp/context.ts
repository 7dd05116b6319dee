/** What every cairn MCP tool is given: the index, the environment it runs in, and the embedder for queries. */
import { createEmbedder, EMBEDDER_SETTING, parseEmbedderConfig } from "../embedders/config.ts";
import type { Embedder } from "../embedders/types.ts";
import type { Store } from "../store/types.ts";

export interface McpContext {
  /** The index; throws an actionable Error when there is none. */
  store(): Store;
  env: Record<string, string | undefined>;
  cwd: string;
  now(): Date;
  /** The embedder chosen for this index (`cairn embed`), or null for words only; made once per setting. */
  embedder(store: Store): Embedder | null;
}

export interface McpContextOptions {
  store: Store | (() => Store);
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: () => Date;
}

export function createMcpContext(opts: McpContextOptions): McpContext {
  const store = typeof opts.store === "function" ? opts.store : () => opts.store as Store;
  const env = opts.env ?? {};
  const cwd = opts.cwd ?? process.cwd();
  // The setting can change while the server runs (`cairn embed`); a remote or model embedder is costly to make.
  let made: { setting: string; embedder: Embedder | null } | null = null;
  return {
    store,
    env,
    cwd,
    now: opts.now ?? (() => new Date()),
    embedder(s) {
      const config = parseEmbedderConfig(s.getSetting(EMBEDDER_SETTING));
      const setting = JSON.stringify(config);
      if (made?.setting !== setting) made = { setting, embedder: createEmbedder(config, env, cwd) };
      return made.embedder;
    },
  };
}
