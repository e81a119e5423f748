import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rangeInZone } from "./manifest";

describe("rangeInZone (the manifest's exact UTC bounds)", () => {
  it("marks the days of 23 and 25 hours of a daylight-saving zone", () => {
    const range = rangeInZone("2026-03-01", "2026-11-30", "America/New_York");
    expect(range.utc_start).toBe("2026-03-01T05:00:00.000Z");
    expect(range.utc_end_exclusive).toBe("2026-12-01T05:00:00.000Z");
    expect(range.irregular_days).toEqual([
      { date: "2026-03-08", hours: 23 },
      { date: "2026-11-01", hours: 25 },
    ]);
  });

  it("has no irregular day in a zone without daylight saving, and 24 hours a day", () => {
    const range = rangeInZone("2026-01-01", "2026-12-31", "Asia/Tokyo");
    expect(range).toMatchObject({ days: 365, irregular_days: [], utc_start: "2025-12-31T15:00:00.000Z" });
  });

  it("spans exactly the hours of its days, in any zone and range", () => {
    const zones = ["UTC", "Europe/Berlin", "Australia/Sydney", "America/Santiago", "Asia/Kolkata", "America/New_York"];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 400 }),
        (zone, offset, length) => {
          const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
          const range = rangeInZone(day(offset), day(offset + length), zone);
          const hours = (Date.parse(range.utc_end_exclusive) - Date.parse(range.utc_start)) / 3_600_000;
          const extra = range.irregular_days.reduce((sum, irregular) => sum + irregular.hours - 24, 0);
          expect(range.days).toBe(length + 1);
          expect(hours).toBe(24 * range.days + extra);
        },
      ),
      { numRuns: 200 },
    );
  });
});
