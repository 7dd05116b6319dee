/** `sessionOfFile`: the session indexed from a transcript file, if it is (pi's extension knows its file). */
import { resolve } from "node:path";
import type { SessionRow } from "../../store/types.ts";
import { question } from "./question.ts";

export const sessionOfFile = question({
  name: "sessionOfFile",
  summary: "the session indexed from a transcript file, or null",
  id: "path",
  answer(ctx, req: { path: string }): SessionRow | null {
    const file = resolve(ctx.cwd, req.path);
    const from = ctx
      .store()
      .listSessions({})
      .filter((s) => s.source_file === file);
    return from.find((s) => s.kind === "main") ?? from[0] ?? null;
  },
});
