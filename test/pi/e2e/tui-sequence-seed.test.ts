/**
 * Seed 001 in pi's real interactive TUI, driven through tmux at 80 and 120 columns, with cairn loaded the way users
 * load it (the built bundle) and a fake OpenAI-compatible model on 127.0.0.1: record a sequence (a rejected
 * third-party command, `/readonly`, a prompt with `$@`, a prompt template, `/handoff`), preview it as typed, restore
 * it, Run it with arguments asked for, twice, and watch each step's status. Every string the seed gives is compared
 * exactly; where the seed's recording status is wider than the terminal, its 80-column wording is.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { piVersion } from "../helpers/pi-cli.ts";
import { type PiInTmux, startPiInTmux } from "../helpers/pi-tmux.ts";
import { hasTmux } from "../helpers/tmux.ts";

const SEED = {
  restore: "Restore last sequence?",
  runCount: "Run this sequence how many times? [1]",
  unsupported: "Unsupported step: /publish is an external extension command.",
  thirdParty: "pi-agenticoding cannot execute third-party extension command handlers.",
};
const RECORDING: Record<number, (steps: string) => string> = {
  120: (steps) => `● recording sequence · ${steps} · Enter adds step · Ctrl+Enter finishes · Esc cancels`,
  80: (steps) => `● recording · ${steps} · Enter adds · Ctrl+Enter finishes · Esc cancels`,
};
const STEPS = ["/readonly", "Plan the implementation for $@", "/review $1", "/handoff execution"];

/** A chat-completions endpoint that answers "Reply to: <last user text>", holding answers the test asks it to. */
interface FakeModel {
  url: string;
  /** The last user text of every request, in order. */
  asked: string[];
  /**
   * Hold the answer to the next request whose last user text matches: resolves, once that request has arrived,
   * with the function that lets the answer go.
   */
  hold(pattern: RegExp): Promise<() => void>;
  close(): Promise<void>;
}

async function startModel(): Promise<FakeModel> {
  const holds: Array<{ pattern: RegExp; arrived: (release: () => void) => void }> = [];
  const model: FakeModel = {
    url: "",
    asked: [],
    hold: (pattern) => new Promise((arrived) => holds.push({ pattern, arrived })),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const { messages } = JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> };
      const last = textOf(messages.filter((m) => m.role === "user").at(-1)?.content);
      model.asked.push(last);
      const held = holds.findIndex((h) => h.pattern.test(last));
      if (held >= 0) {
        const [{ arrived }] = holds.splice(held, 1) as [(typeof holds)[number]];
        await new Promise<void>((release) => arrived(release));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: "assistant", content: `Reply to: ${last.split("\n")[0]}` }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part as { text?: string }).text ?? "").join("");
}

let pi: PiInTmux | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  pi?.stop();
  pi = undefined;
  await model?.close();
  model = undefined;
});

describe.skipIf(!hasTmux())(`seed 001 in pi ${piVersion}'s TUI (tmux)`, () => {
  it.each([120, 80])(
    "records, previews, restores and runs a sequence twice at %i columns",
    { timeout: 240_000 },
    async (width) => {
      const fake = await startModel();
      model = fake;
      const session = await startPiInTmux({
        width,
        model: ["--provider", "fake", "--model", "fake"],
        setup: ({ agent }) => {
          const models = [{ id: "fake", contextWindow: 128000, maxTokens: 4096 }];
          const fakeProvider = { baseUrl: fake.url, api: "openai-completions", apiKey: "dummy", models };
          writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { fake: fakeProvider } }));
          writeFileSync(
            join(agent, "settings.json"),
            JSON.stringify({ defaultProvider: "fake", defaultModel: "fake" }),
          );
          const prompts = join(agent, "prompts");
          mkdirSync(prompts);
          writeFileSync(
            join(prompts, "review.md"),
            "---\ndescription: Review a module\n---\nReview the module $1 for bugs.\n",
          );
        },
      });
      pi = session;
      const { screen, editorShows, editor, agent } = session;
      const recording = RECORDING[width] as (steps: string) => string;
      /** Type `text`, press Enter once the editor holds it (an open completion list is applied by that Enter). */
      const enter = async (text: string) => {
        screen.sendText(text);
        await editor(`the editor to hold ${text}`, (view) => view.lines.join("\n").trim() === text);
        screen.sendKeys("Enter");
      };

      // Recording: each step is checked as it is entered; a third-party command is refused with the seed's words.
      await enter("/sequence");
      await screen.waitFor(recording("0 steps"));
      await enter("/publish");
      await screen.waitFor(SEED.unsupported);
      expect(screen.capture()).toContain(SEED.thirdParty);
      screen.sendKeys("C-u");
      await editorShows("");
      for (const [index, step] of STEPS.entries()) {
        await enter(step);
        await screen.waitFor(recording(`${index + 1} ${index === 0 ? "step" : "steps"}`));
        await editorShows("");
      }
      // The preview shows the steps exactly as typed.
      const preview = ["Sequence", ...STEPS.map((step, index) => `${index + 1}. ${step}`)];
      expect(lines(screen.capture())).toEqual(expect.arrayContaining(preview));

      // Finishing asks for the arguments the steps use; Esc there starts nothing, the sequence is kept.
      screen.sendKeys("C-Enter");
      await screen.waitFor("Arguments for $@ in the steps?");
      screen.sendKeys("Escape");
      await screen.waitFor("Sequence not started.");

      // Restore: the seed's prompt and choices, with the steps it would run above it; Run asks for the arguments.
      await editorShows("");
      await enter("/sequence");
      await screen.waitFor(SEED.restore);
      const restore = lines(screen.capture());
      expect(restore).toEqual(expect.arrayContaining([SEED.restore, ...preview]));
      for (const choice of ["Run", "Edit", "Start new", "Cancel"]) {
        expect(restore.some((line) => line.replace(/^→\s*/, "") === choice)).toBe(true);
      }
      screen.sendKeys("Enter");
      await screen.waitFor("Arguments for $@ in the steps?");
      const planHeld = fake.hold(/^Plan the implementation for auth$/);
      screen.sendText("auth");
      screen.sendKeys("Enter");
      await screen.waitFor(SEED.runCount);
      screen.sendText("2");
      screen.sendKeys("Enter");

      // Running: the footer says where the run is, in the seed's form; read-only mode is on from step 1.
      await screen.waitFor("⟳ sequence · run 1/2 · step 2/4 · Plan the implementation for $@");
      expect(footerLine(screen.capture())).toBe(
        "🔒 readonly ⟳ sequence · run 1/2 · step 2/4 · Plan the implementation for $@",
      );
      let release = await planHeld;
      for (const run of [1, 2]) {
        const handoffHeld = fake.hold(/^execution$/);
        release();
        await screen.waitFor(`⟳ sequence · run ${run}/2 · step 4/4 · /handoff execution`, 60_000);
        release = await handoffHeld;
      }
      release();
      await screen.waitFor("Sequence finished: 2 runs of 4 steps.", 60_000);

      // What the model was asked: the arguments filled in, the template read from its file, the handoff's direction.
      const asked = fake.asked.filter((text) => !/summar/i.test(text));
      expect(asked.filter((text) => text === "Plan the implementation for auth")).toHaveLength(2);
      expect(asked.filter((text) => text.trim() === "Review the module auth for bugs.")).toHaveLength(2);
      expect(asked.filter((text) => text === "execution")).toHaveLength(2);
      expect(asked.some((text) => text.includes("/review") || text.includes("$@"))).toBe(false);
      // Four sessions: each run's, and the one each handoff started.
      const files = readdirSync(join(agent, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) =>
        f.endsWith(".jsonl"),
      );
      expect(files).toHaveLength(4);
      const handoffs = files
        .map((file) => readFileSync(join(agent, "sessions", file), "utf8"))
        .filter((text) => text.includes('"customType":"cairn-handoff"'));
      expect(handoffs).toHaveLength(2);
    },
  );
});

/** The screen's rows, trimmed. */
function lines(screen: string): string[] {
  return screen.split("\n").map((line) => line.trim());
}

/** The footer's status row: the last row holding the sequence's status. */
function footerLine(screen: string): string | undefined {
  return lines(screen)
    .filter((line) => line.includes("⟳ sequence"))
    .at(-1)
    ?.replace(/\s+(e2e\b.*|e\.*|\.\.\.)$/, "");
}
