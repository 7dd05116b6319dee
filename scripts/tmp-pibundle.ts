import { build } from "rolldown";

await build({
  input: { index: "/tmp/pistart/entry.ts" },
  platform: "node",
  external: [
    /^@earendil-works\//,
    /^node:/,
    "better-sqlite3",
    "sqlite-vec",
    "pg",
    "ws",
    "onnxruntime-node",
    "@huggingface/tokenizers",
    "@anthropic-ai/claude-agent-sdk",
    /^@modelcontextprotocol/,
  ],
  output: { dir: "/work/main/dist/pi-test2", format: "esm", chunkFileNames: "[name]-[hash].js" },
});
