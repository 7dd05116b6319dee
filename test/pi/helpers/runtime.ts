/**
 * pi's real runtime, offline: an `AgentSessionRuntime` whose command-context actions are bound the way pi's own
 * modes bind them (so `ctx.newSession`, `ctx.waitForIdle`, `ctx.reload` really replace and wait), the faux model
 * provider, temp project/agent/session directories, in-memory settings with a tiny `keepRecentTokens` so small
 * sessions can compact, and a recording UI context in "tui" mode.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type AssistantMessage,
  type FauxProviderHandle,
  fauxAssistantMessage,
  fauxProvider,
  getCurrentSystemPrompt,
  InMemoryCredentialStore,
  InMemoryModelsStore,
  type Message,
} from "@earendil-works/pi-ai";
import {
  type AgentSession,
  type AgentSessionRuntime,
  type CreateAgentSessionRuntimeFactory,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type ExtensionError,
  type InlineExtension,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { createFakeUi, type FakeUi } from "./fake-pi.ts";

export interface RuntimeHarness {
  runtime: AgentSessionRuntime;
  faux: FauxProviderHandle;
  ui: FakeUi;
  cwd: string;
  agentDir: string;
  sessionDir: string;
  errors: ExtensionError[];
  /** Every prompt the model received, as the text of the last user message. */
  prompts: string[];
  /** The current session (it changes after every replacement). */
  readonly session: AgentSession;
  writeProjectFile(relativePath: string, content: string): string;
  /** Shut the runtime down and delete the temp directories. */
  dispose(): Promise<void>;
}

export interface RuntimeHarnessOptions {
  extensions: InlineExtension[];
  /** Project files to create before pi starts, e.g. `.pi/prompts/x.md`. */
  files?: Record<string, string>;
  /** Load skills (reads `~/.agents/skills` too; point HOME at a temp dir first). */
  skills?: boolean;
  /** Answer a prompt differently (e.g. with a tool call); undefined falls back to "reply to: <prompt>". */
  respond?: (prompt: string, messages: readonly Message[]) => AssistantMessage | undefined;
  tools?: string[];
}

export async function createRuntimeHarness(options: RuntimeHarnessOptions): Promise<RuntimeHarness> {
  process.env["PI_OFFLINE"] = "1";
  const root = mkdtempSync(join(tmpdir(), "cairn-pi-runtime-"));
  const cwd = join(root, "project");
  const agentDir = join(root, "agent");
  const sessionDir = join(root, "sessions");
  for (const dir of [cwd, agentDir, sessionDir]) mkdirSync(dir, { recursive: true });
  const writeProjectFile = (relativePath: string, content: string) => {
    const path = join(cwd, relativePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  for (const [path, content] of Object.entries(options.files ?? {})) writeProjectFile(path, content);

  const prompts: string[] = [];
  const faux = fauxProvider({ provider: "faux" });
  // Enough replies for any test; each answers the last user message, and summarization requests get a summary.
  faux.setResponses(
    Array.from({ length: 200 }, () => (context: { messages: Message[] }) => {
      const last = lastUserText(context.messages);
      if (/summariz/i.test(getCurrentSystemPrompt(context.messages))) return fauxAssistantMessage("Summary (faux).");
      prompts.push(last);
      return options.respond?.(last, context.messages) ?? fauxAssistantMessage(`reply to: ${last}`);
    }),
  );
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    modelsStore: new InMemoryModelsStore(),
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);

  const createRuntime: CreateAgentSessionRuntimeFactory = async ({
    cwd,
    agentDir,
    sessionManager,
    sessionStartEvent,
  }) => {
    const services = await createAgentSessionServices({
      cwd,
      agentDir,
      modelRuntime,
      settingsManager: SettingsManager.inMemory({
        compaction: { enabled: false, keepRecentTokens: 1 },
        retry: { enabled: false },
      }),
      resourceLoaderOptions: {
        noExtensions: true,
        noSkills: !options.skills,
        noThemes: true,
        noContextFiles: true,
        extensionFactories: options.extensions,
        systemPromptOverride: () => "You are a test agent.",
      },
    });
    const created = await createAgentSessionFromServices({
      services,
      sessionManager,
      ...(sessionStartEvent ? { sessionStartEvent } : {}),
      model: faux.getModel(),
      thinkingLevel: "off",
      tools: options.tools ?? ["read"],
    });
    return { ...created, services, diagnostics: services.diagnostics };
  };
  const runtime = await createAgentSessionRuntime(createRuntime, {
    cwd,
    agentDir,
    sessionManager: SessionManager.create(cwd, sessionDir),
  });

  const ui = createFakeUi();
  const errors: ExtensionError[] = [];
  const bind = async (session: AgentSession) => {
    await session.bindExtensions({
      uiContext: ui.ui,
      mode: "tui",
      commandContextActions: {
        waitForIdle: () => session.waitForIdle(),
        newSession: (o) => runtime.newSession(o),
        fork: async (id, o) => ({ cancelled: (await runtime.fork(id, o)).cancelled }),
        navigateTree: async (id, o) => ({ cancelled: (await session.navigateTree(id, o)).cancelled }),
        switchSession: (path, o) => runtime.switchSession(path, o),
        reload: () => session.reload(),
      },
      onError: (error) => {
        errors.push(error);
      },
    });
  };
  runtime.setRebindSession(bind);
  await bind(runtime.session);

  return {
    runtime,
    faux,
    ui,
    cwd,
    agentDir,
    sessionDir,
    errors,
    prompts,
    get session() {
      return runtime.session;
    },
    writeProjectFile,
    async dispose() {
      await runtime.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function lastUserText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  return "";
}
