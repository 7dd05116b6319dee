/**
 * A driver whose SDK loads later. Importing pi's SDK takes one to several seconds, most of `cairn serve`'s start,
 * and nothing needs it until a session opens: the server listens and prints its URL first, then `start()` loads
 * the driver while the page loads. A session asked for before then waits for it; a driver that fails to load
 * fails that session with the loader's message (the install hint for a missing SDK).
 */
import type { DriverName } from "../protocol.ts";
import type { LiveDriver, OpenSessionOptions } from "./types.ts";

export interface DeferredDriver extends LiveDriver {
  /** Starts loading (once) and resolves with the loaded driver. */
  start(): Promise<LiveDriver>;
}

export function deferredDriver(name: DriverName, cwd: string, load: () => Promise<LiveDriver>): DeferredDriver {
  let loading: Promise<LiveDriver> | null = null;
  const start = (): Promise<LiveDriver> => {
    loading ??= load();
    return loading;
  };
  return {
    name,
    cwd,
    start,
    async open(options?: OpenSessionOptions) {
      return (await start()).open(options);
    },
  };
}
