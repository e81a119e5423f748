import { describe, expect, it } from "vitest";
import { bucketStart, comparisonRange, dayCount, resolvePreset, todayIn } from "./date-range";

describe("dates in the store's time zone", () => {
  // 03:30 UTC on 1 March 2026: still 28 February in New York, already 1 March in Tokyo.
  const now = new Date("2026-03-01T03:30:00Z");

  it("takes today from the store's time zone, not the browser's", () => {
    expect(todayIn("America/New_York", now)).toBe("2026-02-28");
    expect(todayIn("Asia/Tokyo", now)).toBe("2026-03-01");
    expect(todayIn("UTC", now)).toBe("2026-03-01");
  });

  it("resolves each preset around the store's day boundary", () => {
    expect(resolvePreset("today", "America/New_York", now)).toEqual({ startDate: "2026-02-28", endDate: "2026-02-28" });
    expect(resolvePreset("yesterday", "Asia/Tokyo", now)).toEqual({ startDate: "2026-02-28", endDate: "2026-02-28" });
    expect(resolvePreset("last7", "America/New_York", now)).toEqual({ startDate: "2026-02-22", endDate: "2026-02-28" });
    expect(resolvePreset("last30", "Asia/Tokyo", now)).toEqual({ startDate: "2026-01-31", endDate: "2026-03-01" });
    expect(dayCount(resolvePreset("last90", "UTC", now))).toBe(90);
    expect(resolvePreset("monthToDate", "America/New_York", now)).toEqual({ startDate: "2026-02-01", endDate: "2026-02-28" });
    expect(resolvePreset("monthToDate", "Asia/Tokyo", now)).toEqual({ startDate: "2026-03-01", endDate: "2026-03-01" });
    expect(resolvePreset("lastMonth", "Asia/Tokyo", now)).toEqual({ startDate: "2026-02-01", endDate: "2026-02-28" });
    expect(resolvePreset("lastMonth", "America/New_York", new Date("2026-01-15T12:00:00Z"))).toEqual({
      startDate: "2025-12-01",
      endDate: "2025-12-31",
    });
  });

  it("resolves the year-long presets: 365 days, the twelve whole months before this one, the year to date", () => {
    expect(resolvePreset("last365", "America/New_York", now)).toEqual({ startDate: "2025-03-01", endDate: "2026-02-28" });
    expect(dayCount(resolvePreset("last365", "Asia/Tokyo", now))).toBe(365);
    expect(resolvePreset("last12Months", "Asia/Tokyo", now)).toEqual({ startDate: "2025-03-01", endDate: "2026-02-28" });
    expect(resolvePreset("last12Months", "America/New_York", now)).toEqual({ startDate: "2025-02-01", endDate: "2026-01-31" });
    expect(resolvePreset("last12Months", "UTC", new Date("2026-01-10T12:00:00Z"))).toEqual({
      startDate: "2025-01-01",
      endDate: "2025-12-31",
    });
    expect(resolvePreset("yearToDate", "Asia/Tokyo", now)).toEqual({ startDate: "2026-01-01", endDate: "2026-03-01" });
    expect(resolvePreset("yearToDate", "America/New_York", new Date("2026-01-01T03:00:00Z"))).toEqual({
      startDate: "2025-01-01",
      endDate: "2025-12-31",
    });
  });

  it("resolves the week and quarter presets in the store's days: weeks from Monday, quarters from January, April, July, October", () => {
    // Sunday Nov 29, 2026, 03:00 UTC: still Saturday Nov 28 in New York, already Sunday in Tokyo.
    const now = new Date("2026-11-29T03:00:00Z");
    expect(resolvePreset("thisWeek", "America/New_York", now)).toEqual({ startDate: "2026-11-23", endDate: "2026-11-28" });
    expect(resolvePreset("lastWeek", "America/New_York", now)).toEqual({ startDate: "2026-11-16", endDate: "2026-11-22" });
    expect(resolvePreset("thisWeek", "Asia/Tokyo", now)).toEqual({ startDate: "2026-11-23", endDate: "2026-11-29" });
    expect(resolvePreset("thisQuarter", "Asia/Tokyo", now)).toEqual({ startDate: "2026-10-01", endDate: "2026-11-29" });
    expect(resolvePreset("lastQuarter", "Asia/Tokyo", now)).toEqual({ startDate: "2026-07-01", endDate: "2026-09-30" });
    // Across a year: the first quarter's last quarter is the year before's fourth.
    const january = new Date("2027-01-05T12:00:00Z");
    expect(resolvePreset("lastQuarter", "UTC", january)).toEqual({ startDate: "2026-10-01", endDate: "2026-12-31" });
    expect(resolvePreset("lastWeek", "UTC", january)).toEqual({ startDate: "2026-12-28", endDate: "2027-01-03" });
  });

  it("compares with the period just before, of the same length", () => {
    expect(comparisonRange({ startDate: "2026-03-01", endDate: "2026-03-07" }, "previous")).toEqual({
      startDate: "2026-02-22",
      endDate: "2026-02-28",
    });
    expect(comparisonRange({ startDate: "2026-03-01", endDate: "2026-03-01" }, "previous")).toEqual({
      startDate: "2026-02-28",
      endDate: "2026-02-28",
    });
  });

  it("compares with the same weekdays 52 weeks earlier", () => {
    expect(comparisonRange({ startDate: "2026-03-01", endDate: "2026-03-31" }, "year")).toEqual({
      startDate: "2025-03-02",
      endDate: "2025-04-01",
    });
    expect(comparisonRange({ startDate: "2024-02-29", endDate: "2024-03-05" }, "year")).toEqual({
      startDate: "2023-03-02",
      endDate: "2023-03-07",
    });
  });

  it("buckets days into ISO weeks and months", () => {
    expect(bucketStart("2026-03-01", "week")).toBe("2026-02-23");
    expect(bucketStart("2026-03-02", "week")).toBe("2026-03-02");
    expect(bucketStart("2026-03-17", "month")).toBe("2026-03-01");
    expect(bucketStart("2026-03-17", "day")).toBe("2026-03-17");
  });

  it("keeps text that is not a date as a bucket of its own (the chart used to throw on it)", () => {
    expect(bucketStart("", "week")).toBe("");
    expect(bucketStart("someday", "month")).toBe("someday");
  });

  it("takes today in a zone recovered from an odd value, or in UTC (the page used to fail on it)", () => {
    expect(todayIn("(GMT-05:00) America/New_York", now)).toBe("2026-02-28");
    expect(todayIn("(GMT-05:00) Eastern Time (US & Canada)", now)).toBe("2026-02-28");
    expect(todayIn("Eastern Time (US & Canada)", now)).toBe("2026-03-01");
    expect(resolvePreset("last7", "not a zone", now)).toEqual({ startDate: "2026-02-23", endDate: "2026-03-01" });
  });
});
