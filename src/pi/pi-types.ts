/**
 * Types derived from pi's public API where pi does not export a name for them.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";

type NewSessionOptions = NonNullable<Parameters<ExtensionCommandContext["newSession"]>[0]>;

/** The fresh context pi passes to `withSession` after a session replacement (not exported from pi's root). */
export type ReplacedSessionContext = Parameters<NonNullable<NewSessionOptions["withSession"]>>[0];

/** The writable session manager pi passes to `newSession`'s `setup` before the replacement session starts. */
export type SetupSessionManager = Parameters<NonNullable<NewSessionOptions["setup"]>>[0];

/** A command context that may also be a replacement context; only the latter can await a sent prompt. */
export function isReplacedContext(ctx: ExtensionCommandContext): ctx is ReplacedSessionContext {
  return typeof (ctx as Partial<ReplacedSessionContext>).sendUserMessage === "function";
}
