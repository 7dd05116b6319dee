/** Who is writing to a team index: the machine (`CAIRN_MACHINE`, else the host name) and the user. */
import { hostname, userInfo } from "node:os";
import type { Identity } from "../store/pg/store.ts";

export function identityFrom(env: Record<string, string | undefined>): Identity {
  let user: string | null = env["CAIRN_USER"] || null;
  if (user === null) {
    try {
      user = userInfo().username;
    } catch {
      user = env["USER"] ?? null;
    }
  }
  return { machine: env["CAIRN_MACHINE"] || hostname(), user };
}
