/** The tools' zod definitions converted to JSON schemas as the MCP SDK converts them (zod 4: draft-7). */
import { z } from "zod";
import { TOOL_ZOD } from "./tool-zod.ts";

export function toolJsonSchemas(): Record<string, { inputSchema: unknown; outputSchema: unknown }> {
  return Object.fromEntries(
    Object.entries(TOOL_ZOD).map(([name, t]) => [
      name,
      {
        inputSchema: z.toJSONSchema(z.object(t.inputSchema), { target: "draft-7", io: "input" }),
        outputSchema: z.toJSONSchema(z.object(t.outputSchema), { target: "draft-7", io: "output" }),
      },
    ]),
  );
}
