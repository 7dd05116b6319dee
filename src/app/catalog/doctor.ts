/** `doctor`: per agent, whether its transcripts still reach the index (moved stores, new record types, unreadable files). */
import { homedir } from "node:os";
import { CairnError } from "../../common/errors.ts";
import { AGENTS } from "../../readers/agents.ts";
import type { ReadonlyStore } from "../../store/types.ts";
import { type DoctorAnswer, diagnose } from "../doctor.ts";
import { withListedRoots } from "../listed-roots.ts";
import { question } from "./question.ts";

export type { DoctorAnswer } from "../doctor.ts";

export const doctor = question({
  name: "doctor",
  summary: "per agent: folders, versions seen, record types cairn does not know, unreadable files, files not indexed",
  // Paths and record type names come from the file system and the transcripts' keys, not through the redacting view.
  scan: true,
  answer(ctx, _req: undefined): DoctorAnswer {
    const home = ctx.env["HOME"] || homedir();
    return diagnose({
      agents: AGENTS,
      roots: (a) => withListedRoots(a.roots(ctx.env, home)),
      store: storeIfAny(() => ctx.store()),
    });
  },
});

/** The index, or null when there is none yet: the file system still says what an index would hold. */
function storeIfAny(open: () => ReadonlyStore): ReadonlyStore | null {
  try {
    return open();
  } catch (error) {
    if (error instanceof CairnError && error.code === "no_index") return null;
    throw error;
  }
}
