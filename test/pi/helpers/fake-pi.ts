/**
 * Typed fakes of pi's extension surface for unit tests. `createFakePi()` implements the whole `ExtensionAPI` (the
 * object literal is checked against pi's own interface, so a missing or mistyped member fails `tsc`), records
 * what the extension registers and writes, and lets tests emit events and run commands. Contexts are backed by a
 * real in-memory `SessionManager`, so branches, leaves and entries behave exactly as in pi.
 */

import { fauxProvider } from "@earendil-works/pi-ai";
import type {
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  ExtensionUIContext,
  RegisteredCommand,
  SlashCommandInfo,
} from "@earendil-works/pi-coding-agent";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { STALE_MESSAGE } from "./stale.ts";

type EditorFactory = Parameters<ExtensionUIContext["setEditorComponent"]>[0];
type StoredHandler = (event: never, ctx: never) => unknown;
type CallableHandler = (event: unknown, ctx: ExtensionContext) => unknown;
type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

export interface StoredTool {
  name: string;
  run(params: unknown, ctx: ExtensionContext): Promise<{ content: unknown[]; details: unknown }>;
}

export interface FakePi {
  api: ExtensionAPI;
  commands: Map<string, CommandOptions>;
  tools: Map<string, StoredTool>;
  /** Everything passed to `appendEntry`, in order. */
  entries: Array<{ customType: string; data: unknown }>;
  userMessages: string[];
  /** What `getCommands()` returns; tests mutate it to change the "installed" commands. */
  commandList: SlashCommandInfo[];
  /** Call every handler for `event`, in registration order; returns their results. */
  emit(event: string, payload: unknown, ctx: ExtensionContext): Promise<unknown[]>;
  runCommand(name: string, args: string, ctx: ExtensionCommandContext): Promise<void>;
  /** From now on every call on `api` throws pi's stale-context error, as after a session replacement. */
  retire(): void;
}

export interface FakePiOptions {
  /** `appendEntry` also writes here, so the branch reflects what the extension persisted. */
  session?: SessionManager;
  commandList?: SlashCommandInfo[];
  /** Plays the agent for `sendUserMessage` (pi would start a turn). */
  onUserMessage?: (text: string) => void;
  /** What `getAllTools()` returns (pi 1.6 adds `annotations`, hence the loose type). */
  allTools?: Array<{ name: string; annotations?: Record<string, unknown> }>;
}

export function createFakePi(options: FakePiOptions = {}): FakePi {
  const handlers = new Map<string, StoredHandler[]>();
  let retired = false;
  const fake: Omit<FakePi, "api"> = {
    commands: new Map(),
    tools: new Map(),
    entries: [],
    userMessages: [],
    commandList: options.commandList ?? [],
    async emit(event, payload, ctx) {
      const results: unknown[] = [];
      for (const handler of handlers.get(event) ?? []) results.push(await (handler as CallableHandler)(payload, ctx));
      return results;
    },
    async runCommand(name, args, ctx) {
      const command = fake.commands.get(name);
      if (!command) throw new Error(`no command /${name}`);
      await command.handler(args, ctx);
    },
    retire() {
      retired = true;
    },
  };

  const api: ExtensionAPI = {
    on(event: string, handler: StoredHandler) {
      const list = handlers.get(event) ?? [];
      list.push(handler);
      handlers.set(event, list);
      return () => {
        list.splice(list.indexOf(handler), 1);
      };
    },
    registerTool(tool) {
      fake.tools.set(tool.name, {
        name: tool.name,
        run: async (params, ctx) => {
          const result = await tool.execute("call-1", params as never, undefined, undefined, ctx as never);
          return { content: result.content, details: result.details };
        },
      });
    },
    registerCommand(name, command) {
      fake.commands.set(name, command);
    },
    registerShortcut() {},
    registerFlag() {},
    getFlag: () => undefined,
    registerMessageRenderer() {},
    registerMarkdownTransformer() {},
    registerEntryRenderer() {},
    sendMessage() {},
    sendUserMessage(content) {
      const text = typeof content === "string" ? content : JSON.stringify(content);
      fake.userMessages.push(text);
      options.onUserMessage?.(text);
    },
    appendEntry(customType, data) {
      fake.entries.push({ customType, data });
      options.session?.appendCustomEntry(customType, data);
    },
    setSessionName() {},
    getSessionName: () => undefined,
    setLabel() {},
    exec: async () => ({ stdout: "", stderr: "", code: 0, killed: false, truncated: false }),
    getActiveTools: () => [...fake.tools.keys()],
    getAllTools: () =>
      (options.allTools ?? []).map((tool) => ({
        description: "",
        parameters: {} as never,
        exposure: "direct" as const,
        sourceInfo: { path: "/ext.ts", source: "local", scope: "project", origin: "top-level" },
        ...tool,
      })),
    setActiveTools() {},
    getCommands: () => fake.commandList,
    setModel: async () => true,
    getThinkingLevel: () => "off",
    setThinkingLevel() {},
    registerProvider() {},
    unregisterProvider() {},
    registerToolRenderer() {},
    getSettings: () => ({}) as never,
    registerMcpServer() {},
    unregisterMcpServer() {},
    getMcpServers: () => [],
    registerVirtualModel() {},
    unregisterVirtualModel() {},
    events: { emit() {}, on: () => () => {} },
  };
  const guarded = new Proxy(api, {
    get(target, property, receiver) {
      if (retired) throw new Error(STALE_MESSAGE);
      return Reflect.get(target, property, receiver);
    },
  });
  // Same object, so tests see later changes to its fields (e.g. a replaced commandList).
  return Object.assign(fake, { api: guarded });
}

export interface FakeUi {
  ui: ExtensionUIContext;
  notifications: Array<{ message: string; type: "info" | "warning" | "error" }>;
  statuses: Map<string, string>;
  /** Every status change, in order (`undefined` clears). */
  statusLog: Array<{ key: string; text: string | undefined }>;
  widgets: Map<string, string[]>;
  /** Every string-array widget shown, in order. */
  widgetLog: string[][];
  editorFactory: EditorFactory | undefined;
  /** The text of pi's own editor, as `setEditorText` left it. */
  editorText: string;
  /** Answers for `select`, `input` and `confirm`, consumed in order; an exhausted list answers "dismissed". */
  answers: { select: Array<string | undefined>; input: Array<string | undefined>; confirm: boolean[] };
  asked: Array<{ kind: "select" | "input" | "confirm"; title: string; options?: string[] }>;
  terminalListeners: Set<(data: string) => unknown>;
  /** Resolves once `predicate` holds, checked now and after every UI change; rejects after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
}

export function createFakeUi(): FakeUi {
  const fake: Omit<FakeUi, "ui"> = {
    notifications: [],
    statuses: new Map(),
    statusLog: [],
    widgets: new Map(),
    widgetLog: [],
    editorFactory: undefined,
    editorText: "",
    answers: { select: [], input: [], confirm: [] },
    asked: [],
    terminalListeners: new Set(),
    until(predicate, what, timeoutMs = 10_000) {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          watchers.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`timed out waiting for ${what}`));
        }, timeoutMs);
        watchers.add(check);
      });
    },
  };
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const ui: ExtensionUIContext = {
    async select(title, options) {
      fake.asked.push({ kind: "select", title, options });
      changed();
      return fake.answers.select.shift();
    },
    async confirm(title) {
      fake.asked.push({ kind: "confirm", title });
      changed();
      return fake.answers.confirm.shift() ?? false;
    },
    async input(title) {
      fake.asked.push({ kind: "input", title });
      changed();
      return fake.answers.input.shift();
    },
    notify(message, type = "info") {
      fake.notifications.push({ message, type });
      changed();
    },
    onTerminalInput(handler) {
      fake.terminalListeners.add(handler);
      return () => fake.terminalListeners.delete(handler);
    },
    setStatus(key, text) {
      fake.statusLog.push({ key, text });
      if (text === undefined) fake.statuses.delete(key);
      else fake.statuses.set(key, text);
      changed();
    },
    setWorkingMessage() {},
    setWorkingVisible() {},
    setWorkingIndicator() {},
    setHiddenThinkingLabel() {},
    setWidget(key: string, content: unknown) {
      if (Array.isArray(content)) {
        fake.widgets.set(key, content.map(String));
        fake.widgetLog.push(content.map(String));
      } else {
        fake.widgets.delete(key);
      }
      changed();
    },
    setFooter() {},
    setHeader() {},
    setTitle() {},
    custom: async () => {
      throw new Error("custom components are not available in unit tests");
    },
    pasteToEditor() {},
    setEditorText(text) {
      fake.editorText = text;
      changed();
    },
    getEditorText: () => fake.editorText,
    editor: async () => undefined,
    addAutocompleteProvider() {},
    setEditorComponent(factory) {
      fake.editorFactory = factory;
      changed();
    },
    getEditorComponent: () => fake.editorFactory,
    theme: plainTheme,
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "not available in unit tests" }),
    getToolsExpanded: () => false,
    setToolsExpanded() {},
  };
  return Object.assign(fake, { ui });
}

/** Every styling call returns its text unstyled (the last argument), which is all tests need from a theme. */
const plainTheme = new Proxy(
  {},
  {
    get:
      () =>
      (...args: unknown[]) =>
        String(args.at(-1) ?? ""),
  },
) as ExtensionUIContext["theme"];

export interface FakeContextOptions {
  session?: SessionManager;
  ui?: FakeUi;
  mode?: ExtensionContext["mode"];
  /** False as in print and RPC modes, where dialogs cannot be shown. */
  hasUI?: boolean;
  cwd?: string;
  /** Without a model pi cannot start a turn; the runner checks for one before sending a prompt. */
  withModel?: boolean;
  newSession?: ExtensionCommandContext["newSession"];
  compact?: ExtensionContext["compact"];
  idle?: () => boolean;
  onAbort?: () => void;
}

export interface FakeContext {
  ctx: ExtensionCommandContext;
  session: SessionManager;
  ui: FakeUi;
}

export function createFakeContext(options: FakeContextOptions = {}): FakeContext {
  const session = options.session ?? SessionManager.inMemory(options.cwd ?? "/project");
  const ui = options.ui ?? createFakeUi();
  const unsupported = (what: string) => async () => {
    throw new Error(`${what} is not available in this fake context`);
  };
  const ctx: ExtensionCommandContext = {
    ui: ui.ui,
    mode: options.mode ?? "tui",
    hasUI: options.hasUI ?? true,
    cwd: options.cwd ?? "/project",
    sessionManager: session,
    get modelRegistry(): never {
      throw new Error("no model registry in unit tests");
    },
    model: options.withModel ? fauxProvider({ provider: "faux" }).getModel() : undefined,
    scopedModels: [],
    isIdle: options.idle ?? (() => true),
    isProjectTrusted: () => true,
    signal: undefined,
    abort: () => options.onAbort?.(),
    hasPendingMessages: () => false,
    shutdown() {},
    getContextUsage: () => undefined,
    compact:
      options.compact ??
      ((compactOptions) => compactOptions?.onError?.(new Error("compaction is not available in this fake context"))),
    getSystemPrompt: () => "",
    getSystemPromptOptions: () => ({ cwd: options.cwd ?? "/project" }),
    waitForIdle: async () => {},
    newSession: options.newSession ?? (async () => ({ cancelled: true })),
    fork: unsupported("fork"),
    navigateTree: unsupported("navigateTree"),
    switchSession: unsupported("switchSession"),
    reload: unsupported("reload"),
  };
  return { ctx, session, ui };
}

/** A `getCommands()` entry as pi reports it. */
export function command(
  name: string,
  source: SlashCommandInfo["source"],
  path: string,
  scope: "user" | "project" | "temporary" = "project",
): SlashCommandInfo {
  return {
    name,
    source,
    sourceInfo: { path, source: source === "extension" ? "local" : "auto", scope, origin: "top-level" },
  };
}

/** The commands cairn registers, as pi lists them for an extension loaded from `path`. */
export function cairnCommands(path = "/pkg/cairn/dist/pi/index.js"): SlashCommandInfo[] {
  return ["notebook", "readonly", "handoff", "sequence"].map((name) => command(name, "extension", path));
}
