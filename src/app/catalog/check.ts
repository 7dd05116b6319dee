/**
 * Checks a question's input (a tool call's arguments, a query string read into fields) against its JSON schema and
 * fills its defaults, as the zod definitions the schema was converted from would (`inputs.ts`): the keywords those
 * conversions produce for an object of plain fields — type (string, integer, number, boolean, or an array of
 * them), minLength/maxLength (UTF-16 units, as zod counts), minimum/maximum/exclusiveMinimum, enum, default,
 * minItems/maxItems, required. Unknown fields are dropped, as zod drops them. A schema using any other keyword is
 * refused when checked, so a new kind of field cannot pass unchecked.
 */
export type JsonSchema = Record<string, unknown>;

export type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

const FIELD_KEYWORDS = new Set([
  "type",
  "description",
  "default",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "enum",
  "items",
  "minItems",
  "maxItems",
]);

/** `strict`: a field the schema does not name is refused rather than dropped (a caller's misspelt option). */
export function checkArgs(schema: JsonSchema, given: unknown, opts: { strict?: boolean } = {}): Checked {
  if (given === undefined || given === null) given = {};
  if (typeof given !== "object" || Array.isArray(given)) return { ok: false, message: "arguments must be an object" };
  const input = given as Record<string, unknown>;
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const args: Record<string, unknown> = {};
  const problems: string[] = [];
  if (opts.strict)
    for (const name of Object.keys(input))
      if (!(name in properties) && input[name] !== undefined) problems.push(`${name}: not a field of this question`);
  for (const [name, field] of Object.entries(properties)) {
    const value = input[name];
    if (value === undefined) {
      if ("default" in field) args[name] = field["default"];
      else if (required.has(name)) problems.push(`${name}: required`);
      continue;
    }
    // One value where a list is asked for is a list of one (a query string's single parameter, an agent's string).
    const given = field["type"] === "array" && !Array.isArray(value) ? [value] : value;
    const problem = fieldProblem(field, given);
    if (problem) problems.push(`${name}: ${problem}`);
    else args[name] = given;
  }
  return problems.length > 0 ? { ok: false, message: problems.join("; ") } : { ok: true, args };
}

function fieldProblem(field: JsonSchema, value: unknown): string | null {
  for (const key of Object.keys(field))
    if (!FIELD_KEYWORDS.has(key)) throw new Error(`check: schema keyword '${key}' is not supported`);
  const type = field["type"];
  const shown = JSON.stringify(value)?.slice(0, 60) ?? String(value);
  switch (type) {
    case "string":
      if (typeof value !== "string") return `expected a string, got ${shown}`;
      if (Array.isArray(field["enum"]) && !field["enum"].includes(value))
        return `expected one of ${field["enum"].join(", ")}, got ${shown}`;
      return bounds(field, value.length, " characters");
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return `expected a number, got ${shown}`;
      if (type === "integer" && !Number.isInteger(value)) return `expected an integer, got ${shown}`;
      return bounds(field, value, "");
    case "boolean":
      return typeof value === "boolean" ? null : `expected true or false, got ${shown}`;
    case "array": {
      if (!Array.isArray(value)) return `expected a list, got ${shown}`;
      const count = bounds({ minimum: field["minItems"], maximum: field["maxItems"] }, value.length, " items");
      if (count) return count;
      for (const item of value) {
        const problem = fieldProblem((field["items"] ?? {}) as JsonSchema, item);
        if (problem) return problem;
      }
      return null;
    }
    default:
      throw new Error(`check: schema type ${JSON.stringify(type)} is not supported`);
  }
}

/** Bounds on a number, or on a string's length (`unit` " characters"). */
function bounds(field: JsonSchema, n: number, unit: string): string | null {
  const min = (field["minimum"] ?? field["minLength"]) as number | undefined;
  const max = (field["maximum"] ?? field["maxLength"]) as number | undefined;
  const above = field["exclusiveMinimum"] as number | undefined;
  if (min !== undefined && n < min) return `must be at least ${min}${unit} (got ${n})`;
  if (max !== undefined && n > max) return `must be at most ${max}${unit} (got ${n})`;
  if (above !== undefined && n <= above) return `must be more than ${above} (got ${n})`;
  return null;
}
