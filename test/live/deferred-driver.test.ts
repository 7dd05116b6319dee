/** `cairn serve` prints its URL before the driver's SDK loads: the driver loads on `start()` or the first session. */
import { describe, expect, it } from "vitest";
import { deferredDriver } from "../../src/live/drivers/deferred.ts";
import { createScriptedDriver } from "../../src/live/drivers/scripted.ts";
import type { LiveDriver } from "../../src/live/drivers/types.ts";

const script = { version: 1 as const, turns: [{ steps: [] }] };

describe("deferred driver", () => {
  it("loads nothing until started, then once, and opens sessions through the loaded driver", async () => {
    let loads = 0;
    const driver = deferredDriver("scripted", "/w/app", async () => {
      loads++;
      return createScriptedDriver({ script, cwd: "/w/app" }) as LiveDriver;
    });
    expect([driver.name, driver.cwd, loads]).toEqual(["scripted", "/w/app", 0]);
    const session = await driver.open();
    expect(typeof session.sessionId).toBe("string");
    await driver.start();
    await session.close();
    expect(loads).toBe(1);
  });

  it("a driver that cannot load fails the session with the loader's message", async () => {
    const driver = deferredDriver("pi", "/w/app", () =>
      Promise.reject(new Error("the pi driver needs @earendil-works/pi-coding-agent, which is not installed")),
    );
    await expect(driver.open()).rejects.toThrow(/not installed/);
    await expect(driver.start()).rejects.toThrow(/not installed/);
  });
});
