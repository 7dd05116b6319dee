/** The real extension factory applied to a fake `pi`. */
import { type CairnExtensionOptions, createCairnExtension } from "../../../src/pi/extension.ts";
import { createFakePi, type FakePi, type FakePiOptions } from "./fake-pi.ts";
import { piHost } from "./pi-host.ts";

export function createExtensionForTest(options: CairnExtensionOptions, piOptions: FakePiOptions = {}): { pi: FakePi } {
  const pi = createFakePi(piOptions);
  void createCairnExtension(piHost, { sandbox: () => ({ kind: "none" }), ...options })(pi.api);
  return { pi };
}
