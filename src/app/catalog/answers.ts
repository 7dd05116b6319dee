/**
 * The catalog made into the app's methods: each takes its question's input (or, for a question with an id field,
 * the id alone), checks it against the question's schema and rules, runs the handler and passes the answer through
 * the shaping step. This is the only way an answer leaves `app/`.
 */
import { CairnError } from "../../common/errors.ts";
import { inputSchema } from "../catalog-schemas.ts";
import type { Shaped, ShapeOptions } from "../shape/shape.ts";
import { shapeResult } from "../shape/shape.ts";
import { checkArgs } from "./check.ts";
import { CATALOG, type Catalog } from "./index.ts";
import type { Question, QuestionContext } from "./question.ts";

type Answered<A> = A extends Promise<infer V> ? Promise<Shaped<V>> : Shaped<A>;

/** A question as the app's method: its input (or its id alone, when it has one), its answer shaped. */
type Method<Q> =
  Q extends Question<infer I, infer A, infer K>
    ? undefined extends I
      ? (input?: Exclude<I, undefined> | (K extends string ? string : never)) => Answered<A>
      : (input: I | (K extends string ? string : never)) => Answered<A>
    : never;

export type Questions = { [N in keyof Catalog]: Method<Catalog[N]> };

export function answerQuestions(ctx: QuestionContext, shaping: ShapeOptions): Questions {
  const methods: Record<string, (input?: unknown) => unknown> = {};
  for (const [name, q] of Object.entries(CATALOG) as Array<[string, Question<unknown, unknown>]>) {
    const opts = q.scan ? { ...shaping, scan: true } : shaping;
    methods[name] = (input?: unknown) => {
      const req = checked(q, input);
      ctx.begin();
      return shapeResult(q.answer(ctx, req), opts);
    };
  }
  return methods as unknown as Questions;
}

/** The input as the handler takes it: an id given alone made its field, checked against the schema and rules. */
function checked(q: Question<unknown, unknown>, given: unknown): unknown {
  let input = typeof given === "string" && q.id !== undefined ? { [q.id]: given } : given;
  if (q.input !== undefined) {
    const result = checkArgs(inputSchema(q.input), input, { strict: true });
    if (!result.ok) throw new CairnError("usage", result.message);
    input = result.args;
  }
  q.rules?.(input);
  return input;
}
