/** The questions' zod inputs (`inputs.ts`) as JSON schemas (draft-7, as accepted): what data/catalog-schemas.json holds. */
import { z } from "zod";
import { INPUTS } from "./inputs.ts";

export function catalogJsonSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(INPUTS).map(([name, shape]) => [
      name,
      z.toJSONSchema(z.object(shape), { target: "draft-7", io: "input" }),
    ]),
  );
}
