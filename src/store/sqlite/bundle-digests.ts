/**
 * Bundles written before migration 19 get their digest, and the embedded ones let their text go, in the batches
 * of the row conversion (compact-rows.ts): a bundle's key is its anchor event's rowid, so each batch takes the
 * bundles anchored in its span, in its transaction. A bundle waiting to be embedded keeps its text for the embedder.
 */
import type Database from "better-sqlite3";
import { bundleDigest } from "../shared/bundle-text.ts";
import { once } from "./lazy.ts";

/** Converts the bundles anchored in (from, to]; returns how many. Run inside the caller's transaction. */
export function createBundleDigests(db: Database.Database): (from: number, to: number) => number {
  const select = once(() =>
    db
      .prepare("SELECT anchor_rowid, text FROM bundles WHERE anchor_rowid > ? AND anchor_rowid <= ? AND digest IS NULL")
      .raw(true),
  );
  const put = once(() =>
    db.prepare(
      "UPDATE bundles SET digest = ?, text = CASE WHEN embedded <> 0 THEN '' ELSE text END WHERE anchor_rowid = ?",
    ),
  );
  return (from, to) => {
    const rows = select().all(from, to) as Array<[number, string]>;
    for (const [rowid, text] of rows) put().run(bundleDigest(text), rowid);
    return rows.length;
  };
}
