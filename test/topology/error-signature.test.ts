import { describe, expect, it } from "vitest";
import { errorSignature, fallbackSignature, normalizeSignature } from "../../src/topology/error-signature.ts";

describe("error signature", () => {
  const table: Array<[string, string, string | null]> = [
    [
      "src/modes/interactive/interactive-mode.ts(412,7): error TS2304: Cannot find name 'settingsManager'",
      "interactive-mode.ts(N,N): error TSN: Cannot find name 'settingsManager'",
      "TS2304",
    ],
    ["Exit code: 1\nerror: target shim binary not found", "error: target shim binary not found", null],
    [
      "<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>",
      "String to replace not found in file.",
      null,
    ],
    [
      'Traceback (most recent call last):\n  File "/a/b.py", line 3\nValueError: bad value 42',
      "ValueError: bad value N",
      null,
    ],
    ["Rebasing (1/22)\rerror: could not apply fb89908... fix things", "error: could not apply H... fix things", null],
    [
      "\u001b[31mError: ENOENT: no such file or directory, open '/home/u/x.json'\u001b[0m",
      "Error: ENOENT: no such file or directory, open 'x.json'",
      "ENOENT",
    ],
    [
      "fatal: 'main' is already used by worktree at '/Users/t/p'",
      "fatal: 'main' is already used by worktree at 'p'",
      null,
    ],
  ];
  for (const [output, signature, code] of table) {
    it(JSON.stringify(output.slice(0, 50)), () => {
      const sig = errorSignature(output);
      expect(sig?.signature).toBe(signature);
      expect(sig?.code ?? null).toBe(code);
    });
  }
  it("ignores clean summaries and minified dumps", () => {
    expect(errorSignature("Found 0 errors. Watching for file changes.")).toBeNull();
    expect(errorSignature(`${"a=1;b=2;c=[3,4];".repeat(10)} error`)).toBeNull();
  });
  it("repeats of one failure share a signature", () => {
    const a = errorSignature("src/x.ts(10,3): error TS2339: Property 'foo' does not exist on type 'Bar'.");
    const b = errorSignature("/abs/path/src/x.ts(99,12): error TS2339: Property 'foo' does not exist on type 'Bar'.");
    expect(a?.signature).toBe(b?.signature);
  });
  it("falls back to the first line that reads as text, past banners and box drawing", () => {
    expect(
      fallbackSignature("╭──────╮\n│ 🥊 lefthook v1.12.3  hook: pre-commit │\n╰──────╯\n┃  biome-fix ❯ \n")?.signature,
    ).toBe("biome-fix ❯");
  });
  it("skips banners and noise lines when choosing the error line", () => {
    const lefthook = [
      "╭───────────────────────────────────────╮",
      "│ 🥊 lefthook v1.12.3  hook: pre-commit │",
      "╰───────────────────────────────────────╯",
      "┃  biome-fix ❯ ",
      "",
      "\u001b[1G\u001b[0K\u001b[34mChecked 4 files in 23ms. No fixes applied.\u001b[0m",
      "\u001b[1G\u001b[0K⠙\u001b[1G\u001b[0KThe following paths are ignored by one of your .gitignore files:",
      "node_modules",
      "exit status 1┃  biome-format-check ❯ ",
      "summary: (done in 0.99 seconds)",
      "✔️ biome-format-check (0.18 seconds)",
      "🥊 biome-fix (0.34 seconds)",
    ].join("\n");
    const table: Array<[string, string]> = [
      [lefthook, "🥊 biome-fix (N.N seconds)"],
      [
        "Debugger attached.\nWaiting for the debugger to disconnect...\ncp: /opt/homebrew/lib/node_modules/x/dist/theme/dark.json: No such file or directory\n\n\nCommand exited with code 1",
        "cp: dark.json: No such file or directory",
      ],
      ["Debugger attached.\nError in the js-debug bootloader, please report\n\nCommand aborted", "Command aborted"],
      [
        "  ✖ No files were processed in the specified paths.\n  ℹ Check your biome.json",
        "✖ No files were processed in the specified paths.",
      ],
    ];
    for (const [output, signature] of table) expect(errorSignature(output)?.signature).toBe(signature);
  });
  it("a heading that announces a list keeps its first item", () => {
    expect(fallbackSignature("Unused devDependencies (1)\ntailwindcss  package.json:94:6\n")).toMatchObject({
      line: "Unused devDependencies (1): tailwindcss  package.json:94:6",
      signature: "Unused devDependencies (N): tailwindcss package.json:N:N",
    });
    // …but not a diff's line numbers
    expect(errorSignature("× Formatter would have printed the following content:\n75  75\n")?.line).toBe(
      "× Formatter would have printed the following content:",
    );
  });
  it("a curl failure is summarised by its error, not by the progress meter's header (issue 17)", () => {
    const out = [
      "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current",
      "                                 Dload  Upload   Total   Spent    Left  Speed",
      "  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0",
      "zsh: no matches found: http://localhost:3000/api?x=1",
    ].join("\n");
    expect(fallbackSignature(out)?.line).toBe("zsh: no matches found: http://localhost:3000/api?x=1");
    expect(fallbackSignature("╭──────────╮\n│ ─────── │\n======\nDeploy aborted by the hook")?.line).toBe(
      "Deploy aborted by the hook",
    );
  });

  it("keeps a URL's scheme and host instead of folding it like a path", () => {
    const line =
      "fatal: unable to access 'http://dev.example.com/org/repo.git/': Could not resolve host: dev.example.com";
    expect(normalizeSignature(line)).toBe(
      "fatal: unable to access 'http://dev.example.com/…/repo.git/': Could not resolve host: dev.example.com",
    );
    expect(normalizeSignature("see https://x.io")).toBe("see https://x.io");
    // A path still keeps only its base name.
    expect(normalizeSignature("Error: ENOENT /home/a/src/x/file.ts")).toBe("Error: ENOENT file.ts");
  });

  it("clips at 140 characters", () => expect(normalizeSignature(`error ${"x".repeat(300)}`)).toHaveLength(140));
});
