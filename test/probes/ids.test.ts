import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCairn, type McpSession } from "../mcp/client.ts";
import { hasTmux } from "../pi/helpers/tmux.ts";
import { buildWeb } from "../web/helpers/chromium.ts";
import { IdBook, type Printed } from "./helpers/ids.ts";
import { buildIndex, type IndexedEvent, type IndexedSession, indexed, type ProbeIndex, run } from "./helpers/index.ts";
import { writeClientHome } from "./helpers/planted.ts";
import {
  type Browsing,
  browse,
  moveTo,
  pageText,
  SEARCH_ANSWERED,
  type Served,
  settled,
  startServe,
} from "./helpers/serve.ts";
import { startTui } from "./helpers/tui.ts";

let index: ProbeIndex;
let events: IndexedEvent[];
let sessions: IndexedSession[];
let threads: string[];
let book: IdBook;
let mcp: McpSession;
let served: Served;
let web: Browsing;

const QUERIES = ["node test.js", "math.js", "count the lines", "TASK-A", "error", "NOTES.md", "list the files"];

beforeAll(async () => {
  buildWeb();
  index = buildIndex("cairn-probe-ids-", writeClientHome);
  ({ events, sessions } = indexed(index.db));
  const t = await run(index, ["threads", "--all", "--json"]);
  threads = (JSON.parse(t.stdout) as { threads: Array<{ thread_id: string }> }).threads.map((x) => x.thread_id);
  book = new IdBook({
    sessions,
    events: events.map((e) => e.event_id),
    threads,
  });
  mcp = await connectCairn(index.db, index.env);
  served = await startServe(index);
  web = await browse(served);
}, 180_000);
afterAll(async () => {
  await web?.close();
  await served?.stop();
  await mcp?.close();
  index?.remove();
});

const subagents = () => sessions.filter((s) => s.kind === "subagent");

describe("the fixtures hold what the probe is about", () => {
  it("every agent, subagent sessions, and two agents' sessions that share their first 8 characters", () => {
    expect(new Set(sessions.map((s) => s.provider))).toEqual(
      new Set([
        "claude",
        "codex",
        "pi",
        "gemini",
        "qwen",
        "copilot",
        "opencode",
        "kilo",
        "cline",
        "droid",
        "auggie",
        "kimi",
        "crush",
        "openclaw",
        "nanocoder",
        "vibe",
        "mini",
        "continue",
        "omp",
        "commandcode",
        "hermes",
        "gptme",
        "openhands",
        "interpreter",
        "aider",
        "deepagents",
      ]),
    );
    expect(subagents().length).toBeGreaterThanOrEqual(4);
    const heads = sessions.map((s) => s.session_id.slice(0, 8));
    expect(heads.length).toBeGreaterThan(new Set(heads).size);
  });
});

describe("ids as the surfaces print them", () => {
  it("CLI, text and --json: sessions, search, timeline, show, resume, threads, checkpoints, export, ask", async () => {
    const both = (args: string[]) => [args, [...args, "--json"]];
    const commands: string[][] = [
      ...both(["sessions", "--all"]),
      ...QUERIES.flatMap((q) => both(["search", q, "--limit", "50"])),
      ...sessions.flatMap((s) => [
        ...both(["timeline", s.session_id, "--all"]),
        ...both(["resume", s.session_id]),
        ...both(["checkpoints", s.session_id]),
        ["export", s.session_id],
      ]),
      ...events.flatMap((e) => both(["show", e.event_id])),
      ...both(["threads", "--all"]),
      ...threads.flatMap((id) => both(["timeline", "--thread", id])),
      ...both(["ask", "why did node test.js fail", "--dry-run"]),
    ];
    for (const args of commands) {
      const r = await run(index, args);
      book.collect(`cairn ${args.join(" ")}`, `${r.stdout}\n${r.stderr}`);
    }
    expect(book.printed.size).toBeGreaterThan(events.length);
  });

  it("MCP, text and structured: every tool", async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ...QUERIES.map((query): [string, Record<string, unknown>] => ["search_history", { query, limit: 50 }]),
      ...sessions.flatMap(
        (s): Array<[string, Record<string, unknown>]> => [
          ["session_timeline", { session: s.session_id, all: true, max_rows: 200 }],
          ["resume_brief", { session: s.session_id }],
        ],
      ),
      ...events.map((e): [string, Record<string, unknown>] => ["get_event", { event_id: e.event_id }]),
      ["list_threads", { include_single: true, limit: 50 }],
      ...threads.map((thread): [string, Record<string, unknown>] => ["thread_timeline", { thread, max_rows: 200 }]),
    ];
    for (const [tool, args] of calls) {
      const r = await mcp.call(tool, args);
      book.collect(`MCP ${tool} ${JSON.stringify(args)}`, `${r.text}\n${JSON.stringify(r.data)}`);
    }
  });

  it("the web API: every GET route", async () => {
    const paths = [
      "/api/history/sessions?all=1&limit=1000",
      ...QUERIES.map((q) => `/api/history/search?q=${encodeURIComponent(q)}&limit=100`),
      ...sessions.flatMap((s) => [
        `/api/history/sessions/${encodeURIComponent(s.session_id)}`,
        `/api/history/sessions/${encodeURIComponent(s.session_id)}/timeline?all=1&limit=5000`,
        `/api/history/sessions/${encodeURIComponent(s.session_id)}/brief`,
      ]),
      ...events.map((e) => `/api/history/events/${e.event_id}`),
      "/api/history/threads?single=1&limit=1000",
      ...threads.map((id) => `/api/history/threads/${id}?all=1&limit=5000`),
    ];
    for (const path of paths) {
      const r = await served.api(path);
      book.collect(`GET ${path}`, r.text);
    }
  });

  it("the page: its text and its links, on the sessions, session, search and thread views", {
    timeout: 300_000,
  }, async () => {
    const visits: Array<[string, string?]> = [
      ["/sessions?all=1"],
      ["/threads"],
      ...sessions.map((s): [string] => [`/s/${encodeURIComponent(s.session_id)}`]),
      ...QUERIES.map((q): [string, string] => [`/search?q=${encodeURIComponent(q)}`, SEARCH_ANSWERED]),
      ...threads.map((id): [string] => [`/t/${id}`]),
    ];
    let page = await web.open("/sessions");
    for (const [path, ready] of visits) {
      // A view keyed by its id is mounted anew by a move; the lists and search are loaded as a new tab would.
      if (/^\/[st]\//.test(path)) await moveTo(page, path);
      else {
        await page.close();
        page = await web.open(path, ready);
      }
      const { text, html } = await pageText(page);
      book.collect(`page ${path}`, `${text}\n${html.replace(/%3A/gi, ":")}`);
    }
    await page.close();
  });

  it.skipIf(!hasTmux())("the TUI: the session list and each session's header", { timeout: 300_000 }, async () => {
    const tui = await startTui(index);
    try {
      const count = Number(/Sessions \((\d+)\)/.exec(tui.text())![1]);
      for (let s = 0; s < count; s++) {
        await tui.step(["g", ...Array<string>(s).fill("j"), "Enter"], /· \d+ events ·/);
        await tui.press(["q"]);
      }
      book.collect("cairn tui (what it drew)", tui.text());
    } finally {
      tui.kill();
    }
  });
});

describe("every printed id names one thing", () => {
  it("no surface prints an id that fits several sessions, events or threads", () => {
    expect(book.ambiguous()).toEqual([]);
  });
});

/** Resolves each printed id in a surface; returns a line for each that fails or names something else. */
async function resolveAll(
  kind: "session" | "event" | "thread",
  resolve: (token: string, named: string) => Promise<{ id: string | null; said: string }>,
  pick: (p: Printed[]) => Printed[] = (p) => p,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const p of pick(book.resolvable(kind))) {
    const { id, said } = await resolve(p.token, p.named!.id);
    if (id !== p.named!.id)
      wrong.push(
        `'${p.token}' (printed by ${p.where[0]}) names ${kind} ${p.named!.id}, resolved to ${id ?? "nothing"}: ${said.slice(0, 200)}`,
      );
  }
  return wrong;
}

const json = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const field = (o: unknown, ...path: string[]): string | null => {
  let at = o;
  for (const k of path) at = (at as Record<string, unknown> | undefined)?.[k];
  return typeof at === "string" ? at : null;
};

describe("every printed id resolves to what it named, in every surface", () => {
  it("the CLI: timeline, show and timeline --thread", async () => {
    const cli =
      (args: string[], ...path: string[]) =>
      async (token: string) => {
        const r = await run(index, [...args.map((a) => (a === "ID" ? token : a)), "--json"]);
        return { id: field(json(r.stdout), ...path), said: r.stdout || r.stderr };
      };
    const wrong = [
      ...(await resolveAll("session", cli(["timeline", "ID", "--limit", "1"], "session", "session_id"))),
      ...(await resolveAll("event", cli(["show", "ID"], "event", "event_id"))),
      ...(await resolveAll("thread", cli(["timeline", "--thread", "ID", "--limit", "1"], "thread", "thread_id"))),
    ];
    expect(wrong).toEqual([]);
  });

  it("MCP: session_timeline, get_event and thread_timeline", async () => {
    const tool =
      (name: string, arg: string, ...path: string[]) =>
      async (token: string) => {
        const r = await mcp.call(name, { [arg]: token });
        return { id: r.isError ? null : field(r.data, ...path), said: r.text };
      };
    const wrong = [
      ...(await resolveAll("session", tool("session_timeline", "session", "session", "session_id"))),
      ...(await resolveAll("event", tool("get_event", "event_id", "event", "event_id"))),
      ...(await resolveAll("thread", tool("thread_timeline", "thread", "thread_id"))),
    ];
    expect(wrong).toEqual([]);
  });

  it("the web API: sessions/:id, events/:id and threads/:id", async () => {
    const get =
      (prefix: string, ...path: string[]) =>
      async (token: string) => {
        const r = await served.api(`${prefix}${encodeURIComponent(token)}`);
        return { id: r.status === 200 ? field(json(r.text), ...path) : null, said: `${r.status} ${r.text}` };
      };
    const wrong = [
      ...(await resolveAll("session", get("/api/history/sessions/", "session_id"))),
      ...(await resolveAll("event", get("/api/history/events/", "event", "event_id"))),
      ...(await resolveAll("thread", get("/api/history/threads/", "thread", "thread_id"))),
    ];
    expect(wrong).toEqual([]);
  });

  it("the page: /s/ID, /e/ID and /t/ID open what the id named", { timeout: 600_000 }, async () => {
    const errorsBefore = web.errors.length;
    let page = await web.open("/sessions");
    const view =
      (path: string, read: (named: string) => Promise<string | null>) => async (token: string, named: string) => {
        const before = web.errors.length;
        try {
          await moveTo(page, `${path}${encodeURIComponent(token)}`);
        } catch {
          return {
            id: null,
            said: `the view never finished loading: ${((await page.locator("#view").textContent()) ?? "").replace(/\s+/g, " ")}`,
          };
        } finally {
          // A view that threw leaves the page in no state to move on from: load it again.
          if (web.errors.length > before) {
            await page.close();
            page = await web.open("/sessions");
          }
        }
        const failure = await page.locator("#view .failure").count();
        const said = ((await page.locator("#view").textContent()) ?? "").replace(/\s+/g, " ");
        return { id: failure ? null : await read(named), said };
      };
    // The page names a session by the links its timeline page makes (its brief), an event by data-event-id.
    const session = view("/s/", async () => {
      const href = await page.locator('#view a[href$="/brief"]').first().getAttribute("href");
      return href ? decodeURIComponent(href.replace(/^\/s\//, "").replace(/\/brief$/, "")) : null;
    });
    const event = view("/e/", () => page.locator("#view [data-event-id]").first().getAttribute("data-event-id"));
    // The thread view heads itself with the id as asked: it resolved when it shows the thread's rows.
    const thread = view("/t/", async (named) => {
      // Its rows come after its head: wait for them, or for the view to say why there are none.
      await page
        .locator("#view .row, #view .empty")
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {});
      return (await page.locator("#view .row").count()) > 0 ? named : null;
    });
    // Every short form and every subagent event; of the other full event ids (the API resolves them all above), one
    // in four, so the view is seen on every agent's events without loading hundreds.
    const sub = new Set(
      events.filter((e) => subagents().some((s) => s.session_id === e.session_id)).map((e) => e.event_id),
    );
    const someEvents = (printed: Printed[]) =>
      printed.filter((p, i) => p.token !== p.named!.id || sub.has(p.named!.id) || i % 4 === 0);
    const wrong = [
      ...(await resolveAll("session", session)),
      ...(await resolveAll("event", event, someEvents)),
      ...(await resolveAll("thread", thread)),
    ];
    await page.close();
    expect(web.errors.slice(errorsBefore)).toEqual([]);
    expect(wrong).toEqual([]);
  });
});

describe("the page's event view on subagent sessions", () => {
  it("opens every event of every subagent session without an error, naming the id asked for", {
    timeout: 300_000,
  }, async () => {
    const wrong: string[] = [];
    for (const s of subagents()) {
      const own = events.filter((x) => x.session_id === s.session_id);
      // The first event loaded as a new tab would; the rest reached as the page's links reach them.
      let page = await web.context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      for (const [i, e] of own.entries()) {
        errors.length = 0;
        let loaded = true;
        try {
          if (i === 0) {
            await page.goto(`${served.origin}/e/${e.event_id}`);
            await settled(page);
          } else await moveTo(page, `/e/${e.event_id}`);
        } catch {
          loaded = false;
        }
        await page
          .locator("#view [data-event-id], #view .failure")
          .first()
          .waitFor({ timeout: 5000 })
          .catch(() => {});
        // Read what is there now (the wait above is over): a missing element is an answer, not a wait.
        const shown = await page.evaluate(readShown, "[data-event-id]");
        const failure = await page.evaluate(readShown, ".failure");
        if (errors.length > 0 || !loaded || shown !== e.event_id || failure) {
          const said = [
            ...errors,
            loaded ? "" : "the view never finished loading",
            failure ?? "",
            shown ? `shows ${shown}` : "shows no event",
          ];
          wrong.push(`/e/${e.event_id} (${s.provider} subagent ${s.session_id}): ${said.filter(Boolean).join("; ")}`);
          await page.close();
          page = await web.context.newPage();
          page.on("pageerror", (error) => errors.push(error.message));
          await page.goto(`${served.origin}/sessions`);
        }
      }
      await page.close();
    }
    expect(wrong).toEqual([]);
  });
});

/** Runs in the page: the event id a view shows (`[data-event-id]`), or a failure's text (`.failure`); null: none. */
function readShown(selector: string): string | null {
  const g = globalThis as unknown as {
    document: {
      querySelector(s: string): { getAttribute(n: string): string | null; textContent: string | null } | null;
    };
  };
  const el = g.document.querySelector(`#view ${selector}`);
  if (!el) return null;
  return selector === ".failure" ? el.textContent : el.getAttribute("data-event-id");
}
