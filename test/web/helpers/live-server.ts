/** A real `cairn serve` server (controller, access checks, static page) on 127.0.0.1 for browser tests. */
import { tmpdir } from "node:os";
import { createLiveController, type LiveController } from "../../../src/live/controller.ts";
import { parseScript } from "../../../src/live/drivers/script-format.ts";
import { createScriptedDriver } from "../../../src/live/drivers/scripted.ts";
import type { LiveDriver } from "../../../src/live/drivers/types.ts";
import {
  type LiveServerHandle,
  type StartLiveServerOptions,
  startLiveServer,
} from "../../../src/live/server/listen.ts";
import { findWebRoot } from "../../../src/live/server/web-root.ts";

export interface TestServer {
  server: LiveServerHandle;
  controller: LiveController;
  close(): Promise<void>;
}

export async function startServer(
  driver: LiveDriver,
  extra: Partial<StartLiveServerOptions> = {},
): Promise<TestServer> {
  const controller = createLiveController({ driver });
  const server = await startLiveServer({ controller, webRoot: findWebRoot(), ...extra });
  return {
    server,
    controller,
    async close() {
      await server.close();
      await controller.dispose();
    },
  };
}

export function scriptedDriver(script: unknown, cwd = tmpdir()): LiveDriver {
  const parsed = parseScript(JSON.stringify(script));
  if (!parsed.ok) throw new Error(parsed.error);
  return createScriptedDriver({ script: parsed.script, cwd });
}
