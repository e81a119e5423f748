import { describe, expect, it } from "vitest";
import { targetPerBucket } from "./target-line";

/** Issue 36: a target set for November alone was drawn on every month, week and day of the range. */
describe("the Target line", () => {
  const november = new Map([["2026-11", 30_000]]);

  it("exists only in the months that have a target, by month", () => {
    const line = targetPerBucket({ startDate: "2026-01-01", endDate: "2026-11-30" }, "month", november);
    expect([...line.entries()].filter(([, value]) => value !== null)).toEqual([["2026-11-01", 30_000]]);
    expect(line.get("2026-10-01")).toBeNull();
    expect(line.get("2026-01-01")).toBeNull();
  });

  it("is pro-rated to the target month's days in a week, none in weeks before it", () => {
    const line = targetPerBucket({ startDate: "2026-10-01", endDate: "2026-11-30" }, "week", november);
    // Mon 26 Oct to Sun 1 Nov: one November day.
    expect(line.get("2026-10-26")).toBeCloseTo(1_000);
    expect(line.get("2026-11-02")).toBeCloseTo(7_000);
    expect(line.get("2026-10-19")).toBeNull();
  });

  it("is a day's share of its month by day, and a partial month only its days in the range", () => {
    const days = targetPerBucket({ startDate: "2026-10-30", endDate: "2026-11-02" }, "day", november);
    expect([...days.values()]).toEqual([null, null, 1_000, 1_000]);
    const partial = targetPerBucket({ startDate: "2026-11-20", endDate: "2026-11-29" }, "month", november);
    expect(partial.get("2026-11-01")).toBeCloseTo(10_000);
  });

  it("sums two months' targets in a week that spans both", () => {
    const line = targetPerBucket({ startDate: "2026-10-26", endDate: "2026-11-01" }, "week", new Map([["2026-10", 31_000], ...november]));
    expect(line.get("2026-10-26")).toBeCloseTo(6 * 1_000 + 1_000);
  });
});
