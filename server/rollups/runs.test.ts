import { describe, expect, it } from "vitest";
import { progressWords } from "@/components/products/aggregation-progress";
import { firstFreshDay, rollupFilterOf, runsOf } from "./reader";

describe("which days a rollup read asks the upstream for", () => {
  it("groups days into runs of consecutive days, one request each, across month and year ends", () => {
    expect(runsOf(["2025-12-31", "2026-01-02", "2025-12-30", "2026-01-01", "2026-01-05"])).toEqual([
      ["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"],
      ["2026-01-05"],
    ]);
    expect(runsOf([])).toEqual([]);
  });

  it("keeps today and the last ROLLUP_FRESH_DAYS days out of the rollups, for the zone furthest ahead of UTC", () => {
    // At 08:00 UTC it is already 22:00 on the same day in UTC+14, so today anywhere is the 27th.
    expect(firstFreshDay(new Date("2026-11-27T08:00:00Z"), 3)).toBe("2026-11-24");
    // At 11:00 UTC it is the 28th in UTC+14: one more day counts as recent.
    expect(firstFreshDay(new Date("2026-11-27T11:00:00Z"), 3)).toBe("2026-11-25");
    expect(firstFreshDay(new Date("2026-11-27T11:00:00Z"), 0)).toBe("2026-11-28");
  });

  it("answers channel and product filters from the cells, and row filters from their key's cells unless no key is kept", () => {
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
      expect(rollupFilterOf({ ...range, ...filter, channel: "google" })).toEqual({ channel: "google", productIds: undefined });
      expect(rollupFilterOf({ ...range, ...filter }, 0)).toBeNull();
    }
    expect(rollupFilterOf({ ...range, channel: "google" }, 0)).toEqual({ channel: "google", productIds: undefined });
  });

  it("words a read's progress by year and percent, or by rows", () => {
    expect(progressWords({ rows: 120_000, percent: 61, day: "2025-08-10" })).toBe("Reading 2025, 61%");
    expect(progressWords({ rows: 120_000 })).toBe("Reading the orders… 120,000 rows so far");
    expect(progressWords(undefined)).toBe("Reading the orders…");
  });
});
