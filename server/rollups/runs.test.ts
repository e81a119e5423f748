import { describe, expect, it } from "vitest";
import { progressWords } from "@/components/products/aggregation-progress";
import { rollupFilterOf, runsOf } from "./reader";
import { firstFreshDay } from "./zone";

describe("which days a rollup read asks the upstream for", () => {
  it("groups days into runs of consecutive days, one request each, across month and year ends", () => {
    expect(runsOf(["2025-12-31", "2026-01-02", "2025-12-30", "2026-01-01", "2026-01-05"])).toEqual([
      ["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"],
      ["2026-01-05"],
    ]);
    expect(runsOf([])).toEqual([]);
  });

  it("keeps the store's today and its last ROLLUP_FRESH_DAYS days out of the rollups, in the store's own zone", () => {
    // 06:00 in a store at UTC−5 (11:00 UTC): its today is the 27th, whatever day it is in UTC+14.
    const sixLocal = new Date("2026-11-27T11:00:00Z");
    expect(firstFreshDay(sixLocal, 3, "Etc/GMT+5")).toBe("2026-11-24");
    expect(firstFreshDay(sixLocal, 3, "America/New_York")).toBe("2026-11-24");
    // With ROLLUP_FRESH_DAYS 0 the unfinished today is still never stored.
    expect(firstFreshDay(sixLocal, 0, "Etc/GMT+5")).toBe("2026-11-27");
    // Just before midnight UTC it is already tomorrow in Tokyo: Tokyo's today is kept out, not UTC's.
    expect(firstFreshDay(new Date("2026-11-27T23:30:00Z"), 0, "Asia/Tokyo")).toBe("2026-11-28");
  });

  it("answers channel and product filters from the cells, and leaves row filters to the upstream", () => {
    const range = { startDate: "2026-01-01", endDate: "2026-01-02" };
    expect(rollupFilterOf({ ...range, channel: "google", filterProductId: "p1, p2" })).toEqual({
      channel: "google",
      productIds: new Set(["p1", "p2"]),
    });
    for (const filter of [
      { adId: "a" },
      { filterCountry: "US" },
      { filterDeviceType: "mobile" },
      { filterOS: "iOS" },
      { filterBrowser: "Safari" },
    ]) {
      expect(rollupFilterOf({ ...range, ...filter, channel: "google" })).toBeNull();
      expect(rollupFilterOf({ ...range, ...filter })).toBeNull();
    }
    expect(rollupFilterOf({ ...range, channel: "google" })).toEqual({ channel: "google", productIds: undefined });
  });

  it("words a read's progress by year and percent, or by rows", () => {
    expect(progressWords({ rows: 120_000, percent: 61, day: "2025-08-10" })).toBe("Reading 2025, 61%");
    expect(progressWords({ rows: 120_000 })).toBe("Reading the orders… 120,000 rows so far");
    expect(progressWords(undefined)).toBe("Reading the orders…");
  });
});
