/**
 * Issue 34 on the web: the planted-secrets transcripts behind the built `cairn serve`. Every GET route under
 * /api/history/ for every session, event and thread (and search with queries that find each secret), the page's
 * ask with a model that repeats its evidence, and the page itself in Debian's Chromium on the sessions, session
 * (timeline, with each secret event opened), event, search, brief and thread views: neither the JSON, nor the text a
 * person reads, nor the HTML may hold a 20-character piece of a planted secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoEvidence, type FakeModel, startFakeModel } from "../helpers/fake-openai.ts";
import { BROWSER_TEST_MS, buildWeb } from "../web/helpers/chromium.ts";
import { buildIndex, type IndexedEvent, type IndexedSession, indexed, type ProbeIndex, run } from "./helpers/index.ts";
import { LeakReport, writePlantedHome } from "./helpers/planted.ts";
import { SECRET_QUERIES } from "./helpers/queries.ts";
import { type Browsing, browse, moveTo, pageText, SEARCH_ANSWERED, type Served, startServe } from "./helpers/serve.ts";

let index: ProbeIndex;
let served: Served;
let fake: FakeModel;
let events: IndexedEvent[];
let sessions: IndexedSession[];
let holding: string[];
let threads: string[];

beforeAll(async () => {
  buildWeb();
  index = buildIndex("cairn-probe-secrets-web-", writePlantedHome);
  ({ events, sessions } = indexed(index.db));
  const list = await run(index, ["secrets", "--json"]);
  holding = [
    ...new Set((JSON.parse(list.stdout) as { findings: Array<{ event_id: string }> }).findings.map((f) => f.event_id)),
  ];
  fake = await startFakeModel();
  fake.reply = echoEvidence;
  served = await startServe(index, { CAIRN_ASK_URL: fake.url, CAIRN_ASK_MODEL: "fake" });
  const t = await served.api("/api/history/threads?include_single=1&limit=100");
  threads = (JSON.parse(t.text) as { threads: Array<{ thread_id: string }> }).threads.map((x) => x.thread_id);
}, 120_000);
afterAll(async () => {
  await served?.stop();
  await fake?.close();
  index?.remove();
});

/** GETs each path, expecting 200, and adds the body to the report. */
async function getAll(report: LeakReport, paths: string[]): Promise<void> {
  for (const path of paths) {
    const r = await served.api(path);
    expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
    report.add(`GET ${path}`, r.text);
  }
}

const q = encodeURIComponent;

describe("no history API route returns a planted secret", () => {
  it("sessions, each session, its timeline (all rows) and its brief", async () => {
    const report = new LeakReport();
    await getAll(report, [
      "/api/history/sessions?all=1",
      ...sessions.flatMap((s) => [
        `/api/history/sessions/${s.session_id}`,
        `/api/history/sessions/${s.session_id}/timeline?all=1&limit=5000`,
        `/api/history/sessions/${s.session_id}/brief`,
      ]),
      ...holding.map((id) => {
        const session = events.find((e) => e.event_id === id)!.session_id;
        return `/api/history/sessions/${session}/timeline?around=${id}&all=1`;
      }),
      ...holding.map((id) => {
        const session = events.find((e) => e.event_id === id)!.session_id;
        return `/api/history/sessions/${session}/brief?at=${id}`;
      }),
    ]);
    expect(report.lines()).toEqual([]);
  });

  it("every event in the index", async () => {
    const report = new LeakReport();
    await getAll(
      report,
      events.map((e) => `/api/history/events/${e.event_id}`),
    );
    expect(report.lines()).toEqual([]);
  });

  it("search with queries that find each secret, in every mode", async () => {
    const report = new LeakReport();
    const paths = SECRET_QUERIES.flatMap((query) =>
      ["hybrid", "lexical"].map((mode) => `/api/history/search?query=${q(query)}&mode=${mode}&limit=100`),
    );
    await getAll(report, paths);
    expect(report.lines()).toEqual([]);
  });

  it("threads and each thread's timeline", async () => {
    const report = new LeakReport();
    expect(threads.length).toBeGreaterThan(0);
    await getAll(report, [
      "/api/history/threads?include_single=1&limit=100",
      ...threads.map((id) => `/api/history/threads/${id}?all=1&limit=5000`),
    ]);
    expect(report.lines()).toEqual([]);
  });

  it("the page's ask, answered by a model that repeats its evidence: the answer, its check, the prompt sent", async () => {
    const report = new LeakReport();
    for (const question of ["which AWS keys did I paste and what is in .env", "what is in the deploy credentials"]) {
      const r = await served.api("/api/ask", { question });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      report.add(`POST /api/ask ${question}`, r.text);
    }
    for (const ex of fake.seen) report.add("the prompt sent to the model", `${ex.system}\n${ex.user}`);
    expect(fake.seen.length).toBeGreaterThan(0);
    expect(report.lines()).toEqual([]);
  });
});

describe("the page shows no planted secret", { timeout: BROWSER_TEST_MS * 3 }, () => {
  let web: Browsing;
  beforeAll(async () => {
    web = await browse(served);
  }, 60_000);
  afterAll(() => web?.close());

  /** Opens each path and adds what a person reads and the HTML to the report. */
  async function visitAll(report: LeakReport, paths: string[], ready?: string): Promise<void> {
    for (const path of paths) {
      const page = await web.open(path, ready);
      const { text, html } = await pageText(page);
      report.add(`page ${path} (text)`, text);
      report.add(`page ${path} (HTML)`, html);
      await page.close();
    }
  }

  it("sessions, each session's timeline with each secret event opened, and its brief", async () => {
    const report = new LeakReport();
    await visitAll(report, [
      "/sessions?all=1",
      ...sessions.flatMap((s) => [`/s/${s.session_id}`, `/s/${s.session_id}/brief`]),
      ...holding.map((id) => `/s/${events.find((e) => e.event_id === id)!.session_id}?at=${id}`),
    ]);
    expect(web.errors).toEqual([]);
    expect(report.lines()).toEqual([]);
  });

  it("the event view of every event", async () => {
    const report = new LeakReport();
    const page = await web.open("/sessions");
    for (const e of events) {
      // Reached as the page's own links reach an event (a new load each would take minutes).
      await moveTo(page, `/e/${e.event_id}`);
      const { text, html } = await pageText(page);
      report.add(`page /e/${e.event_id} (text)`, text);
      report.add(`page /e/${e.event_id} (HTML)`, html);
    }
    await page.close();
    expect(web.errors).toEqual([]);
    expect(report.lines()).toEqual([]);
  });

  it("search results for queries that find each secret", async () => {
    const report = new LeakReport();
    await visitAll(
      report,
      SECRET_QUERIES.map((query) => `/search?q=${q(query)}`),
      SEARCH_ANSWERED,
    );
    expect(web.errors).toEqual([]);
    expect(report.lines()).toEqual([]);
  });

  it("threads and each thread", async () => {
    const report = new LeakReport();
    await visitAll(report, ["/threads", ...threads.map((id) => `/t/${id}`)]);
    expect(web.errors).toEqual([]);
    expect(report.lines()).toEqual([]);
  });
});
