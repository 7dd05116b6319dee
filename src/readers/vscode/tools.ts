/**
 * A tool call in a VS Code chat response, as the chat keeps it (`toolInvocationSerialized`): `toolId` (the tool's
 * own name, `copilot_readFile`, `run_in_terminal`, …), `toolCallId`, the messages the chat showed for it
 * (`invocationMessage`, `pastTenseMessage`: a string or a markdown object whose `uris` name the files), `isComplete`,
 * `isConfirmed.type` (0 the person declined it, 1 to 4 it ran, 5 it was skipped), `resultDetails` (`isError`, or a
 * list of files a search found) and `toolSpecificData` (a terminal command: `commandLine`, its exit code in
 * `terminalCommandState`, its output in `terminalCommandOutput`). The model's own arguments are not kept here.
 */
import { isObj, num, type Obj, obj, str } from "../json.ts";
import type { ToolResultRecord } from "../types.ts";

type Outcome = Pick<ToolResultRecord, "output" | "isError" | "exitCode">;

/** What a markdown object or plain string says. */
export function textOf(message: unknown): string {
  return typeof message === "string" ? message : (str(obj(message)?.["value"]) ?? "");
}

/** The arguments a call's part shows: a terminal command, else the file its messages name and what they say. */
export function inputOf(part: Obj): Obj {
  const data = obj(part["toolSpecificData"]);
  if (str(data?.["kind"]) === "terminal") {
    const line = obj(data?.["commandLine"]);
    const command =
      str(line?.["userEdited"]) ?? str(line?.["toolEdited"]) ?? str(line?.["original"]) ?? str(data?.["command"]);
    const cwd = str(obj(data?.["cwd"])?.["fsPath"]);
    return { ...(command !== undefined ? { command } : {}), ...(cwd ? { cwd } : {}) };
  }
  const said = textOf(part["pastTenseMessage"]) || textOf(part["invocationMessage"]);
  const path = fileOf(part["pastTenseMessage"]) ?? fileOf(part["invocationMessage"]);
  return { ...(path ? { filePath: path } : {}), ...(said ? { description: said } : {}) };
}

/** The first file a message links to (`uris`, keyed by URI, each with its decoded `path`). */
function fileOf(message: unknown): string | undefined {
  const uris = obj(obj(message)?.["uris"]);
  if (!uris) return undefined;
  for (const u of Object.values(uris)) {
    const o = obj(u);
    if (str(o?.["scheme"]) === "file" && str(o?.["path"])) return windows(str(o?.["path"])!);
  }
  return undefined;
}

/** `/c:/Users/x` as VS Code keeps a Windows path in a URI, as the path it is. */
export function windows(path: string): string {
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

export function outcomeOf(part: Obj): Outcome | null {
  if (part["isComplete"] !== true) return null;
  const confirmed = num(obj(part["isConfirmed"])?.["type"]);
  if (confirmed === 0) return { output: "Rejected by the user", isError: true, exitCode: null };
  if (confirmed === 5) return { output: "Skipped", isError: true, exitCode: null };
  const data = obj(part["toolSpecificData"]);
  const said = textOf(part["pastTenseMessage"]) || textOf(part["invocationMessage"]);
  if (str(data?.["kind"]) === "terminal") {
    const exit = num(obj(data?.["terminalCommandState"])?.["exitCode"]) ?? null;
    const output = str(obj(data?.["terminalCommandOutput"])?.["text"]) ?? said;
    return { output, isError: exit !== null && exit !== 0, exitCode: exit };
  }
  const details = part["resultDetails"];
  const failed = isObj(details) && details["isError"] === true;
  return { output: said, isError: failed, exitCode: null };
}
