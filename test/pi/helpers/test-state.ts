/**
 * A cairn state wired to a fake `pi` and deterministic services, for testing the shared command functions and the
 * modules without a pi runtime.
 */
import type { SessionManager, SlashCommandInfo } from "@earendil-works/pi-coding-agent";
import type { HandoffBriefSource } from "../../../src/pi/handoff/brief-source.ts";
import type { SandboxSupport } from "../../../src/pi/readonly/sandbox.ts";
import type { RecallSource } from "../../../src/pi/recall/recall-source.ts";
import { type CairnServices, type CairnState, createCairnState } from "../../../src/pi/state.ts";
import { cairnCommands, createFakePi, type FakePi, type FakePiOptions } from "./fake-pi.ts";
import { piHost } from "./pi-host.ts";

export interface TestStateOptions {
  session?: SessionManager;
  commandList?: SlashCommandInfo[];
  sandbox?: SandboxSupport;
  briefs?: HandoffBriefSource;
  recall?: RecallSource;
  onUserMessage?: (text: string) => void;
  allTools?: FakePiOptions["allTools"];
  /** Share services with another test state, as instances made by one factory do. */
  services?: CairnServices;
}

export interface TestState {
  pi: FakePi;
  state: CairnState;
  services: CairnServices;
}

export function createTestState(options: TestStateOptions = {}): TestState {
  let clock = 1_000;
  let ids = 0;
  const services: CairnServices = options.services ?? {
    briefs: options.briefs,
    recall: options.recall,
    startBriefs: undefined,
    sandbox: () => options.sandbox ?? { kind: "none", detail: "disabled in tests" },
    now: () => ++clock,
    newId: () => `id-${++ids}`,
    columns: () => undefined,
    host: piHost,
  };
  const pi = createFakePi({
    ...(options.session ? { session: options.session } : {}),
    commandList: options.commandList ?? cairnCommands(),
    ...(options.onUserMessage ? { onUserMessage: options.onUserMessage } : {}),
    ...(options.allTools ? { allTools: options.allTools } : {}),
  });
  return { pi, state: createCairnState(pi.api, services), services };
}
