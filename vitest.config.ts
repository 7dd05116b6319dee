import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Two projects: everything on the pi the repo builds against (1.6.x), and the pi extension's runtime, package and
 * TUI tests again on pi 0.87.x (installed as `pi-coding-agent-087`), the older line the extension still supports.
 * The second resolves pi's packages, in the tests and in src/pi alike, to 0.87's copies.
 */
const pi087 = (rel: string) => fileURLToPath(new URL(`./node_modules/pi-coding-agent-087/${rel}`, import.meta.url));
const nested = (name: string) => pi087(`node_modules/@earendil-works/${name}/dist/index.js`);

export default defineConfig({
  test: {
    setupFiles: ["test/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "main", include: ["test/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "pi-0.87",
          include: ["test/pi/integration/**/*.test.ts", "test/pi/e2e/**/*.test.ts", "test/pi/package.test.ts"],
          env: { CAIRN_TEST_PI_CLI: pi087("dist/bundle/cli.js") },
        },
        resolve: {
          alias: [
            { find: /^@earendil-works\/pi-coding-agent$/, replacement: pi087("dist/index.js") },
            { find: /^@earendil-works\/pi-ai$/, replacement: nested("pi-ai") },
            { find: /^@earendil-works\/pi-tui$/, replacement: nested("pi-tui") },
            { find: /^@earendil-works\/pi-agent-core$/, replacement: nested("pi-agent-core") },
          ],
        },
      },
    ],
  },
});
