/**
 * A deep copy of plain JSON-shaped data (objects, arrays, strings, numbers, booleans, null; `undefined` values kept
 * as `structuredClone` keeps them). Readers and the normalizer copy their resumable state once per batch: for the
 * small states of small files, `structuredClone`'s fixed cost was a visible share of parsing them.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = cloneJson((value as Record<string, unknown>)[k]);
    // A key read from a transcript may be `__proto__`: an own property, as JSON.parse makes it, not the prototype.
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as T;
}
