/**
 * SQL over event texts and metas that may be stored compressed (shared/text-codec.ts). Every connection registers
 * the functions; the expressions below call them only for a BLOB, so a row stored as TEXT costs no call into
 * JavaScript. Statements that read a whole text select the column as it is and decode it in `toEvent` (read.ts).
 */
import type Database from "better-sqlite3";
import { isPacked } from "../shared/packed-meta.ts";
import { compressedHead, decodeStored, headChars, isCompressed, tailChars } from "../shared/text-codec.ts";

export function registerCodecFunctions(db: Database.Database): void {
  const deterministic = { deterministic: true };
  db.function("cairn_text", deterministic, (v: unknown) => decodeStored(v as string | null));
  db.function("cairn_text_head", deterministic, (v: unknown, n: unknown) =>
    isCompressed(v) ? compressedHead(v, Number(n)) : v === null ? null : headChars(String(v), Number(n)),
  );
  // As `ends` of text: the whole value, or its first and last `n` characters when its UTF-8 is over 2n bytes.
  db.function("cairn_text_ends", deterministic, (v: unknown, n: unknown) => {
    if (!isCompressed(v)) return v;
    const text = decodeStored(v);
    const k = Number(n);
    return Buffer.byteLength(text) > 2 * k ? `${headChars(text, k)}\n${tailChars(text, k)}` : text;
  });
  db.function("cairn_packed", deterministic, (v: unknown) =>
    isCompressed(v) ? Number(isPacked(compressedHead(v, 1))) : 0,
  );
}

const blob = (col: string) => `typeof(${col}) = 'blob'`;

/** A column's value as its reader sees it. */
export const decoded = (col: string) => `CASE WHEN ${blob(col)} THEN cairn_text(${col}) ELSE ${col} END`;

/** `substr(col, 1, n)` of the value (`n`: SQL, evaluated once per branch taken). */
export const headOf = (col: string, n: string) =>
  `CASE WHEN ${blob(col)} THEN cairn_text_head(${col}, ${n}) ELSE substr(${col}, 1, ${n}) END`;

/** The value whole, or its first and last `n` characters joined by a newline when its UTF-8 is over 2n bytes. */
export const endsOf = (col: string, n: number) =>
  `CASE WHEN ${blob(col)} THEN cairn_text_ends(${col}, ${n}) WHEN octet_length(${col}) > ${2 * n} THEN substr(${col}, 1, ${n}) || char(10) || substr(${col}, -${n}) ELSE ${col} END`;

/** Whether a stored meta is packed (shared/packed-meta.ts): its first character is `[`. */
export const packedMeta = (col: string) =>
  `(CASE WHEN ${blob(col)} THEN cairn_packed(${col}) ELSE substr(${col}, 1, 1) = '[' END)`;
