/**
 * Aider (`aider-chat` on PyPI, command `aider`): an `openai/` model at the fake (chat completions through LiteLLM),
 * one non-interactive turn per run (`--message`), each run a new `# aider chat started at` section of the project's
 * `.aider.chat.history.md`. Aider has no tool calls: the model edits in SEARCH/REPLACE blocks in its reply's text
 * (`--edit-format diff`), and shell commands are the person's own (`/test`, `/run`). The project is a folder under
 * HOME, as a person's would be, so that cairn's search of HOME finds it.
 */
import type { AgentDriver, RunContext } from "../driver.ts";
import { chat } from "../fake/chat.ts";
import { PROMPTS } from "../fake/script.ts";
import type { Conversation, Reply } from "../fake/types.ts";

const fenced = (file: string, search: string, replace: string) =>
  `${file}\n\`\`\`\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;

/** TASK-A's first reply: a block whose SEARCH text math.js does not hold, which aider refuses and reports back. */
const WRONG = `I'll make add() add.\n\n${fenced("math.js", "  return subtract(a, b);\n", "  return a + b;\n")}`;
/** The reply to aider's report: the block that matches, and the notes as a new file (an empty SEARCH). */
const FIXED = `The line reads differently; here is the matching edit, and the notes.\n\n${fenced(
  "math.js",
  "  return a - b;\n",
  "  return a + b;\n",
)}\n${fenced("NOTES.md", "", "add() subtracted instead of adding; fixed in math.js.\n")}`;

/**
 * The model's side of each request, from the latest user message aider sent: a command's failing output (after
 * `/test`), aider's report of a block that did not match, or a typed prompt. Replies name no file outside the chat,
 * or aider would stop to offer adding it.
 */
function side(conv: Conversation): Reply {
  const last = [...conv.msgs].reverse().find((m) => m.role === "user")?.text ?? "";
  if (/SearchReplaceNoExactMatch/.test(last)) return { text: FIXED };
  if (/^I ran this command:/.test(last)) return { text: "The test fails because add() subtracts instead of adding." };
  if (last.includes("TASK-A:")) return { text: WRONG };
  if (last.includes("TASK-B:")) return { text: "The project has three files: the module, its test and the notes." };
  // Aider runs no command the model suggests without a person's yes (`--yes-always` answers no to it).
  if (last.includes("TASK-C:")) return { text: "Run the test again:\n\n```bash\nnode test.js\n```\n" };
  return { text: "Ok." };
}

/** One aider run in the project: a new section of the history file. */
function aider(ctx: RunContext, message: string, files: string[] = []): Promise<unknown> {
  const args = [
    "--model",
    "openai/fake-coder",
    "--openai-api-base",
    `${ctx.server.url}/v1`,
    "--openai-api-key",
    "dummy",
    "--edit-format",
    "diff",
    "--map-tokens",
    "0",
    "--yes-always",
    "--no-auto-commits",
    "--no-check-update",
    "--no-analytics",
    "--no-show-model-warnings",
    "--no-show-release-notes",
    "--no-pretty",
    "--no-fancy-input",
    "--message",
    message,
    ...files,
  ];
  // LiteLLM's price list from the package, not from the network.
  return ctx.exec(`${ctx.binDir}/aider`, args, { env: { LITELLM_LOCAL_MODEL_COST_MAP: "True" } });
}

export const aiderDriver: AgentDriver = {
  name: "aider",
  pkg: "aider-chat",
  bin: "aider",
  registry: "pypi",
  // 0.86 requires Python < 3.13.
  python: "3.12",
  projectInHome: true,
  protocols: [chat],
  script: { subagents: false, side },
  async run(ctx) {
    // The failing test first, its output handed to the model; then the prompts, the test passing after the fix
    // (`/test` writes nothing then) and a command whose output the person adds to the chat (`/run`).
    await aider(ctx, "/test node test.js", ["math.js"]);
    await aider(ctx, PROMPTS.A, ["math.js"]);
    await aider(ctx, "/test node test.js");
    await aider(ctx, "/run ls");
    await aider(ctx, PROMPTS.B);
    await aider(ctx, PROMPTS.C);
  },
  keep: (rel) => rel === "project/.aider.chat.history.md",
  // The prompts typed, with their times: not a transcript.
  sidecar: (rel) => rel === "project/.aider.input.history",
};
