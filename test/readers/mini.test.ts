/**
 * mini-swe-agent's trajectories, on copies of what its own CLI wrote: the prompts are the tasks the person gave
 * (not the template they were rendered into), the command that submitted a task did not fail, a run that stopped
 * on a limit is an error, and the file is found where its CLI keeps it.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPaths } from "../../src/indexer/inspect.ts";
import { detectReader } from "../../src/readers/detect.ts";
import { taskOf } from "../../src/readers/mini/reader.ts";
import { defaultRoots } from "../../src/readers/roots.ts";
import { REPO } from "../helpers/transcripts.ts";

const FIXTURE = join(REPO, "test", "fixtures", "clients", "mini", "2.4.6", "home");
const TRAJECTORY = join(FIXTURE, ".config", "mini-swe-agent", "last_mini_run.traj.json");
const dir = mkdtempSync(join(tmpdir(), "cairn-mini-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mini-swe-agent: the task inside its template", () => {
  const template = "Please solve this issue: {{task}}\n\nYou can execute bash commands.\n{{system}}";
  it.each([
    ["Please solve this issue: fix it\n\nYou can execute bash commands.\nLinux", template, "fix it"],
    ["Please solve this issue: two\n\nlines\n\nYou can execute bash commands.\n", template, "two\n\nlines"],
    ["{{task}} is the whole template", "{{task}}", "{{task}} is the whole template"],
    ["Fix it", "{% if x %}Hi{% endif %}{{task}}", null],
    ["Fix it", "No task here", null],
    ["Other text: fix it", template, null],
  ])("%j", (rendered, tpl, task) => {
    expect(taskOf(rendered, tpl)).toBe(task);
  });
});

describe("mini-swe-agent: what its trajectory says", () => {
  const r = inspectPaths([FIXTURE], REPO);

  it("the prompts are the tasks as the person gave them", () => {
    const prompts = r.events.filter((e) => e.event_type === "user_message" && e.role === "user").map((e) => e.text);
    expect(prompts).toEqual([
      expect.stringMatching(/^TASK-A: `node test\.js` fails\. .*math\.js\.$/),
      "TASK-B: list the files of the project.",
      "TASK-C: run the test once more.",
    ]);
  });

  it("the command that submitted each task was not run, and did not fail", () => {
    const submits = r.events.filter(
      (e) => e.event_type === "tool_result" && e.command === "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
    );
    expect(submits).toHaveLength(3);
    for (const e of submits) expect(e.status).not.toBe("error");
  });

  it("is found by its content as well as by where it is", () => {
    const head = readFileSync(TRAJECTORY, "utf8").split("\n").slice(0, 8);
    expect(detectReader("", head)?.provider).toBe("mini");
    expect(detectReader("", ["{", '  "info": {', '    "name": "x"', "  }", "}"])).toBeNull();
  });

  it("lives in its config folder: $MSWEA_GLOBAL_CONFIG_DIR, or the platform's", () => {
    const dirs = (env: Record<string, string>) =>
      defaultRoots(env, "/home/u")
        .filter((x) => x.provider === "mini")
        .map((x) => x.dir);
    expect(dirs({})).toEqual(["/home/u/.config/mini-swe-agent", "/home/u/Library/Application Support/mini-swe-agent"]);
    expect(dirs({ XDG_CONFIG_HOME: "/x" })[0]).toBe("/x/mini-swe-agent");
    expect(dirs({ MSWEA_GLOBAL_CONFIG_DIR: "/m" })).toEqual(["/m"]);
  });
});

describe("mini-swe-agent: a run that stopped on its cost limit", () => {
  it("ends in an error that says so", () => {
    const home = join(dir, "limit");
    cpSync(FIXTURE, home, { recursive: true });
    const [file] = readdirSync(join(home, ".config", "mini-swe-agent")).filter((f) => f.endsWith(".traj.json"));
    const path = join(home, ".config", "mini-swe-agent", file!);
    const doc = JSON.parse(readFileSync(path, "utf8"));
    doc.messages[doc.messages.length - 1] = {
      role: "exit",
      content: "LimitsExceeded",
      extra: { exit_status: "LimitsExceeded", submission: "" },
    };
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const errors = inspectPaths([home], REPO).events.filter((e) => e.event_type === "error" && e.role === "system");
    expect(errors.map((e) => e.text)).toEqual(["LimitsExceeded: LimitsExceeded"]);
  });
});
