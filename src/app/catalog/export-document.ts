/** `exportDocument`: a session, or a thread's sessions merged by time, whole: what `cairn export` renders. */
import type { ExportDocument } from "../export/document.ts";
import { cairnVersion } from "../version.ts";
import { question } from "./question.ts";

export const exportDocument = question({
  name: "exportDocument",
  summary: "a session, or every session of a thread merged by time, as one document to share",
  id: "ref",
  async answer(ctx, req: { ref: string }): Promise<ExportDocument> {
    const { exportDocument: build } = await import("../export/document.ts");
    return build(ctx.store(), req.ref, `cairn ${cairnVersion()}`);
  },
});
