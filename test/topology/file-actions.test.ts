import { describe, expect, it } from "vitest";
import { fileActionsOfPatch, fileActionsOfShell, fileActionsOfTool } from "../../src/topology/file-actions.ts";
import { normalizePath } from "../../src/topology/paths.ts";

describe("file actions of tools", () => {
  const table: Array<[string, unknown, unknown[]]> = [
    ["Read", { file_path: "/w/a.ts" }, [{ op: "read", path: "/w/a.ts" }]],
    ["Write", { file_path: "/w/b.ts", content: "1\n2\n3\n" }, [{ op: "write", path: "/w/b.ts", added: 3 }]],
    [
      "Edit",
      { file_path: "/w/c.ts", old_string: "a\nb", new_string: "a\nb\nc" },
      [{ op: "edit", path: "/w/c.ts", added: 3, removed: 2 }],
    ],
    [
      "MultiEdit",
      {
        file_path: "/w/c.ts",
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "c", new_string: "d\ne" },
        ],
      },
      [{ op: "edit", path: "/w/c.ts", added: 3, removed: 2 }],
    ],
    [
      "NotebookEdit",
      { notebook_path: "/w/n.ipynb", new_source: "x" },
      [{ op: "edit", path: "/w/n.ipynb", added: 1, removed: 0 }],
    ],
    ["read", { path: "src/x.ts", offset: 10 }, [{ op: "read", path: "src/x.ts" }]],
    [
      "edit",
      { path: "src/x.ts", oldText: "a", newText: "b" },
      [{ op: "edit", path: "src/x.ts", added: 1, removed: 1 }],
    ],
    ["write", { path: "src/y.ts", content: "z" }, [{ op: "write", path: "src/y.ts", added: 1 }]],
    ["mcp__filesystem__read_file", { path: "/w/r.md" }, [{ op: "read", path: "/w/r.md" }]],
    ["view_image", { path: "shot.png" }, [{ op: "read", path: "shot.png" }]],
    ["Grep", { pattern: "x", path: "/w" }, []],
    // An agent's own write and edit tools, named in its manifest (Auggie's), with their own argument names.
    ["save-file", { path: "NOTES.md", file_content: "a\nb\n" }, [{ op: "write", path: "NOTES.md", added: 2 }]],
    [
      "str-replace-editor",
      { command: "str_replace", path: "m.js", str_replace_entries: [{ old_str: "a - b", new_str: "a + b\n// x" }] },
      [{ op: "edit", path: "m.js", added: 2, removed: 1 }],
    ],
    // Insertions at a line carry no old text: the file is edited, by lines the call does not count.
    [
      "str-replace-editor",
      { command: "insert", path: "m.js", insert_line_entries: [{ insert_line: 1, new_str: "// x" }] },
      [{ op: "edit", path: "m.js", added: 0, removed: 0 }],
    ],
    // One edit, or a list of them, under `edit`, each with `old` and `new` (Kimi CLI's StrReplaceFile)
    [
      "edit",
      { path: "/w/m.js", edit: { old: "a - b", new: "a + b" } },
      [{ op: "edit", path: "/w/m.js", added: 1, removed: 1 }],
    ],
    [
      "edit",
      {
        path: "/w/m.js",
        edit: [
          { old: "a", new: "b\nc" },
          { old: "d", new: "e" },
        ],
      },
      [{ op: "edit", path: "/w/m.js", added: 3, removed: 2 }],
    ],
    // An agent's own tool names, from its manifest (Kimi CLI's)
    ["ReadFile", { path: "/w/m.js" }, [{ op: "read", path: "/w/m.js" }]],
    ["WriteFile", { path: "/w/N.md", content: "x\n" }, [{ op: "write", path: "/w/N.md", added: 1 }]],
    [
      "StrReplaceFile",
      { path: "/w/m.js", edit: { old: "a - b", new: "a + b" } },
      [{ op: "edit", path: "/w/m.js", added: 1, removed: 1 }],
    ],
    // An agent's own edit tool, as its manifest names it (Nanocoder's `string_replace`).
    [
      "string_replace",
      { path: "/w/m.js", old_str: "a - b", new_str: "a + b" },
      [{ op: "edit", path: "/w/m.js", added: 1, removed: 1 }],
    ],
    // A patch tool given one replacement instead of an envelope (Hermes Agent's `patch`, mode `replace`).
    [
      "patch",
      { mode: "replace", path: "/w/m.js", old_string: "a - b", new_string: "a + b" },
      [{ op: "edit", path: "/w/m.js", added: 1, removed: 1 }],
    ],
  ];
  for (const [name, input, expected] of table)
    it(`${name}`, () => expect(fileActionsOfTool(name, input)).toEqual(expected));
});

describe("apply_patch", () => {
  it("reads every header", () => {
    const patch =
      "*** Begin Patch\n*** Add File: a/new.py\n+print(1)\n+print(2)\n*** Update File: b/old.py\n@@\n-x = 1\n+x = 2\n*** Update File: c/from.py\n*** Move to: c/to.py\n*** Delete File: d/gone.py\n*** End Patch";
    expect(fileActionsOfPatch(patch)).toEqual([
      { op: "write", path: "a/new.py", added: 2, removed: 0 },
      { op: "edit", path: "b/old.py", added: 1, removed: 1 },
      { op: "move", path: "c/from.py", to: "c/to.py", added: 0, removed: 0 },
      { op: "delete", path: "d/gone.py", added: 0, removed: 0 },
    ]);
    expect(fileActionsOfTool("apply_patch", { input: patch })).toHaveLength(4);
  });
});

describe("file actions of shell commands", () => {
  const table: Array<[string, Array<{ op: string; path: string; to?: string }>]> = [
    ["sed -i 's/a/b/' src/x.ts", [{ op: "edit", path: "src/x.ts" }]],
    [
      "sed -i '' -e 's/a/b/g' a.ts b.ts",
      [
        { op: "edit", path: "a.ts" },
        { op: "edit", path: "b.ts" },
      ],
    ],
    ["sed -n '1,200p' src/big.ts", [{ op: "read", path: "src/big.ts" }]],
    // BSD sed: the backup suffix is its own word, the script is not a file
    [
      "sed -i '' 's/new Editor()/new Editor(defaultEditorTheme)/g' packages/tui/test/editor.test.ts",
      [{ op: "edit", path: "packages/tui/test/editor.test.ts" }],
    ],
    ["sed -i .bak 's/a/b/' x.ts", [{ op: "edit", path: "x.ts" }]],
    ["sed -i.bak 's/a/b/' x.ts", [{ op: "edit", path: "x.ts" }]],
    ["mv old.ts new.ts", [{ op: "move", path: "old.ts", to: "new.ts" }]],
    ["git mv a.md docs/a.md", [{ op: "move", path: "a.md", to: "docs/a.md" }]],
    ["cp template.env .env", [{ op: "write", path: ".env" }]],
    [
      "rm -f dist/a.js dist/b.js",
      [
        { op: "delete", path: "dist/a.js" },
        { op: "delete", path: "dist/b.js" },
      ],
    ],
    [
      "echo hi > out.txt && echo more >> out.txt",
      [
        { op: "write", path: "out.txt" },
        { op: "write", path: "out.txt" },
      ],
    ],
    ["npm test 2>&1 > /dev/null", []],
    ["cat > notes/plan.md <<'EOF'\n# Plan\n> quoted\nEOF", [{ op: "write", path: "notes/plan.md" }]],
    ["npm run build | tee build.log", [{ op: "write", path: "build.log" }]],
    ["cat package.json | jq .scripts", [{ op: "read", path: "package.json" }]],
    ["head -50 README.md", [{ op: "read", path: "README.md" }]],
    ["touch src/new.ts", [{ op: "write", path: "src/new.ts" }]],
    ["rm -rf $TMPDIR/x *.log", []],
    ["git rm --cached secrets.txt", [{ op: "delete", path: "secrets.txt" }]],
    ["cd packages/app && sed -i 's/a/b/' src/x.ts", [{ op: "edit", path: "packages/app/src/x.ts" }]],
    [
      "cd /abs && mv a b && cd sub && rm c",
      [
        { op: "move", path: "/abs/a", to: "/abs/b" },
        { op: "delete", path: "/abs/sub/c" },
      ],
    ],
    ["bash -lc 'cd web && touch index.html'", [{ op: "write", path: "web/index.html" }]],
  ];
  for (const [cmd, expected] of table) it(JSON.stringify(cmd), () => expect(fileActionsOfShell(cmd)).toEqual(expected));
});

describe("paths", () => {
  it("one key however the path is spelled", () => {
    expect(normalizePath("src/./a/../b.ts", "/w")).toEqual({ key: "/w/src/b.ts", display: "src/b.ts" });
    expect(normalizePath("/w/src/b.ts", "/w")).toEqual({ key: "/w/src/b.ts", display: "src/b.ts" });
    expect(normalizePath("/etc/hosts", "/w")).toEqual({ key: "/etc/hosts", display: "/etc/hosts" });
    expect(normalizePath("C:\\repo\\x.ts", null)?.key).toBe("/C:/repo/x.ts");
    expect(normalizePath("https://example.com/a", "/w")).toBeNull();
  });
  it("`~/` is the home the working directory lies under, when it shows one", () => {
    const table: Array<[string, string | null, string]> = [
      [
        "~/.pi/agent/themes/test.json",
        "/Users/badlogic/workspaces/pi-mono",
        "/Users/badlogic/.pi/agent/themes/test.json",
      ],
      ["~/.codemie/metrics", "/home/dev/repo", "/home/dev/.codemie/metrics"],
      ["~", "/home/dev/repo", "/home/dev"],
      ["~/x.json", "/root/p", "/root/x.json"],
      // no home to be seen: kept as written, the same way everywhere
      ["~/x.json", "/tmp/work", "~/x.json"],
      ["~/x.json", null, "~/x.json"],
      ["~other/x.json", "/home/dev/repo", "~other/x.json"],
    ];
    for (const [path, cwd, key] of table) expect(normalizePath(path, cwd)?.key, `${path} in ${cwd}`).toBe(key);
  });
});
