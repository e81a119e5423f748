import { describe, expect, it } from "vitest";
import { epochMsToZonedLocal, isValidTimeZone, timeZoneOffsetMs, zonedLocalToEpochMs } from "./time-zone";

const HOUR = 3_600_000;

describe("zonedLocalToEpochMs", () => {
  it("reads a wall-clock time in New York, winter and summer", () => {
    expect(zonedLocalToEpochMs("2026-01-15T09:30", "America/New_York")).toBe(Date.parse("2026-01-15T14:30:00Z"));
    expect(zonedLocalToEpochMs("2026-07-15T09:30", "America/New_York")).toBe(Date.parse("2026-07-15T13:30:00Z"));
  });

  it("reads Asia/Tokyo (no daylight saving), across the date line from UTC", () => {
    expect(zonedLocalToEpochMs("2026-03-01T08:00", "Asia/Tokyo")).toBe(Date.parse("2026-02-28T23:00:00Z"));
    expect(zonedLocalToEpochMs("2026-07-01T00:00", "Asia/Tokyo")).toBe(Date.parse("2026-06-30T15:00:00Z"));
  });

  it("on the spring-forward day, keeps the hours around the gap and refuses the skipped hour", () => {
    // 2026-03-08 in New York: 02:00 EST becomes 03:00 EDT.
    expect(zonedLocalToEpochMs("2026-03-08T01:59", "America/New_York")).toBe(Date.parse("2026-03-08T06:59:00Z"));
    expect(zonedLocalToEpochMs("2026-03-08T02:30", "America/New_York")).toBeNull();
    expect(zonedLocalToEpochMs("2026-03-08T03:00", "America/New_York")).toBe(Date.parse("2026-03-08T07:00:00Z"));
    const morning = zonedLocalToEpochMs("2026-03-08T00:00", "America/New_York")!;
    const noon = zonedLocalToEpochMs("2026-03-08T12:00", "America/New_York")!;
    expect(noon - morning).toBe(11 * HOUR);
  });

  it("on the fall-back day, reads the repeated hour as its first occurrence", () => {
    // 2026-11-01 in New York: 02:00 EDT becomes 01:00 EST; 01:30 happens twice.
    expect(zonedLocalToEpochMs("2026-11-01T01:30", "America/New_York")).toBe(Date.parse("2026-11-01T05:30:00Z"));
    expect(zonedLocalToEpochMs("2026-11-01T02:30", "America/New_York")).toBe(Date.parse("2026-11-01T07:30:00Z"));
  });

  it("handles a southern-hemisphere zone and Europe/Berlin's own change date", () => {
    expect(zonedLocalToEpochMs("2026-01-10T12:00", "Australia/Sydney")).toBe(Date.parse("2026-01-10T01:00:00Z"));
    expect(zonedLocalToEpochMs("2026-03-29T02:30", "Europe/Berlin")).toBeNull();
    expect(zonedLocalToEpochMs("2026-03-29T03:30", "Europe/Berlin")).toBe(Date.parse("2026-03-29T01:30:00Z"));
  });

  it("accepts seconds, and refuses what is not a real date and time or zone", () => {
    expect(zonedLocalToEpochMs("2026-01-15T09:30:15", "UTC")).toBe(Date.parse("2026-01-15T09:30:15Z"));
    for (const value of ["", "2026-02-30T10:00", "2026-01-15T24:00", "2026-01-15 09:30", "2026-13-01T00:00", "2026-01-15T09:60"]) {
      expect(zonedLocalToEpochMs(value, "UTC"), value).toBeNull();
    }
    expect(zonedLocalToEpochMs("2026-01-15T09:30", "Mars/Olympus_Mons")).toBeNull();
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
  });

  it("reads instants in a zone it does not know as UTC instead of throwing (the clone page used to fail)", () => {
    const instant = Date.parse("2026-07-15T13:30:00Z");
    expect(epochMsToZonedLocal(instant, "(GMT-05:00) Eastern Time (US & Canada)")).toBe("2026-07-15T13:30");
    expect(timeZoneOffsetMs(instant, "Mars/Olympus_Mons")).toBe(0);
    expect(epochMsToZonedLocal(instant, "-05:00")).toBe("2026-07-15T08:30");
    expect(zonedLocalToEpochMs("2026-07-15T08:30", "+05:45")).toBe(Date.parse("2026-07-15T02:45:00Z"));
  });
});

describe("epochMsToZonedLocal and timeZoneOffsetMs", () => {
  it("writes an instant as the zone's wall clock, and round-trips", () => {
    const instant = Date.parse("2026-07-15T13:30:00Z");
    expect(epochMsToZonedLocal(instant, "America/New_York")).toBe("2026-07-15T09:30");
    expect(epochMsToZonedLocal(instant, "Asia/Tokyo")).toBe("2026-07-15T22:30");
    expect(zonedLocalToEpochMs(epochMsToZonedLocal(instant, "Asia/Tokyo"), "Asia/Tokyo")).toBe(instant);
  });

  it("gives the offset in milliseconds", () => {
    expect(timeZoneOffsetMs(Date.parse("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-5 * HOUR);
    expect(timeZoneOffsetMs(Date.parse("2026-07-15T12:00:00Z"), "America/New_York")).toBe(-4 * HOUR);
    expect(timeZoneOffsetMs(Date.parse("2026-07-15T12:00:00Z"), "Asia/Tokyo")).toBe(9 * HOUR);
  });
});
