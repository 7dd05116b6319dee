/**
 * The sentence models cairn knows how to install: where the hub keeps each one (a pinned revision, never a branch),
 * and the sha256 and size of every file it needs. A file is trusted because its checksum is the pin, wherever it
 * came from (the hub, a mirror, a folder or an archive a user already has), never because of its path.
 */

export interface PinnedFile {
  /** Where the file is in the model's hub repository. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface KnownModel {
  /** What a user types: `cairn models pull minilm-l6`. */
  id: string;
  summary: string;
  repo: string;
  revision: string;
  files: { weights: PinnedFile; config: PinnedFile; tokenizer: PinnedFile };
  /** Tokens a text is cut to before embedding (the model's own sequence length). */
  maxTokens: number;
  /**
   * Cosine similarity under which a bundle is taken as unrelated to a query, calibrated on the search eval's
   * relevant and unrelated pairs for this model (`npm run eval:floor`).
   */
  floor: number;
  /** Text put before a query or a document, for models trained with such prefixes (e5, bge). */
  prefix?: { query: string; document: string };
}

export const KNOWN_MODELS: readonly KnownModel[] = [
  {
    id: "minilm-l6",
    summary: "all-MiniLM-L6-v2: English sentence embeddings, 384 dimensions, 22M parameters",
    repo: "sentence-transformers/all-MiniLM-L6-v2",
    revision: "c9745ed1d9f207416be6d2e6f8de32d1f16199bf",
    files: {
      weights: {
        path: "model.safetensors",
        sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        bytes: 90_868_376,
      },
      config: {
        path: "config.json",
        sha256: "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        bytes: 612,
      },
      tokenizer: {
        path: "tokenizer.json",
        sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        bytes: 466_247,
      },
    },
    maxTokens: 256,
    // On the eval (npm run eval:floor), with each query's background bar (src/search/background.ts): 126 of the
    // 130 relevant hits meaning ranks clear 0.30, and of 52 unrelated queries only a misspelling ("autentication
    // faild", 0.45) finds anything. The floor alone would let 6 through.
    floor: 0.3,
  },
];

/** The model installed when a user names none, chosen by measurement (docs/search.md, "Models"). */
export const DEFAULT_MODEL = "minilm-l6";

export function knownModel(id: string): KnownModel | undefined {
  return KNOWN_MODELS.find((m) => m.id === id);
}

export type FileRole = keyof KnownModel["files"];
export const FILE_ROLES: readonly FileRole[] = ["weights", "config", "tokenizer"];
