/**
 * The web timeline marks where the date changes between rows, in the reader's own time zone: 22:30 and 01:00 the
 * next morning in Los Angeles are two days there and one day in UTC.
 */
import { afterEach, describe, expect, it } from "vitest";
import { dayBreaks } from "../../web/ui/format.ts";

const zone = process.env["TZ"];
afterEach(() => {
  if (zone === undefined) delete process.env["TZ"];
  else process.env["TZ"] = zone;
});

const times = ["2026-12-07T06:30:00Z", null, "2026-12-07T09:00:00Z", "2026-12-07T09:05:00Z"];

describe("day separators", () => {
  it("fall at the reader's midnight", () => {
    process.env["TZ"] = "America/Los_Angeles";
    expect(dayBreaks(times)).toEqual(["Sun, 6 Dec 2026", null, "Mon, 7 Dec 2026", null]);
    process.env["TZ"] = "UTC";
    expect(dayBreaks(times)).toEqual(["Mon, 7 Dec 2026", null, null, null]);
  });
});
