import { describe, expect, it } from "vitest";
import { nextDigestSlot } from "./digest-schedule";

describe("nextDigestSlot", () => {
  const daily = { cadence: "daily" as const, localTime: "08:00", timeZone: "America/New_York" };

  it("keeps the wall-clock time across daylight-saving changes", () => {
    // 8 March 2026: New York springs forward (UTC-5 to UTC-4).
    expect(nextDigestSlot(daily, new Date("2026-03-07T14:00:00Z")).toISOString()).toBe("2026-03-08T12:00:00.000Z");
    expect(nextDigestSlot(daily, new Date("2026-03-06T14:00:00Z")).toISOString()).toBe("2026-03-07T13:00:00.000Z");
    // 1 November 2026: back to UTC-5.
    expect(nextDigestSlot(daily, new Date("2026-11-01T00:00:00Z")).toISOString()).toBe("2026-11-01T13:00:00.000Z");
  });

  it("sends a time the clocks skip at the first minute that exists after it", () => {
    const skipped = { cadence: "daily" as const, localTime: "02:30", timeZone: "America/New_York" };
    expect(nextDigestSlot(skipped, new Date("2026-03-08T05:00:00Z")).toISOString()).toBe("2026-03-08T07:00:00.000Z");
  });

  it("finds the next chosen weekday, strictly after the given instant", () => {
    const weekly = { cadence: "weekly" as const, weekday: 1, localTime: "09:30", timeZone: "Europe/Berlin" };
    // Monday 23 November 2026, 09:30 Berlin = 08:30 UTC.
    expect(nextDigestSlot(weekly, new Date("2026-11-20T12:00:00Z")).toISOString()).toBe("2026-11-23T08:30:00.000Z");
    expect(nextDigestSlot(weekly, new Date("2026-11-23T08:30:00Z")).toISOString()).toBe("2026-11-30T08:30:00.000Z");
  });
});
