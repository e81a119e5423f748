import { describe, expect, it } from "vitest";
import { autoGranularity, compactChange, partialBucket } from "./comparison";

describe("compactChange", () => {
  it("reads as an arrow and a percentage, with the sentence kept for screen readers", () => {
    expect(compactChange(103.1, 100, "the previous period")).toMatchObject({ text: "↑3.1%", tone: "up" });
    expect(compactChange(99.2, 100, "the previous period")).toEqual({
      text: "↓0.8%",
      tone: "down",
      sentence: "0.8% less than the previous period.",
    });
  });

  it("says new when the comparison had nothing, and never shows a signed zero", () => {
    expect(compactChange(50, 0, "x").text).toBe("new");
    expect(compactChange(0, 0, "x").text).toBe("—");
    expect(compactChange(100.01, 100, "x")).toMatchObject({ text: "0.0%", tone: "flat" });
    expect(compactChange(null, 5, "x").tone).toBe("none");
  });
});

describe("autoGranularity", () => {
  it("follows the length of the range", () => {
    expect(autoGranularity({ startDate: "2026-01-01", endDate: "2026-03-31" })).toBe("day");
    expect(autoGranularity({ startDate: "2026-01-01", endDate: "2026-06-30" })).toBe("week");
    expect(autoGranularity({ startDate: "2025-01-01", endDate: "2026-06-30" })).toBe("month");
  });
});

describe("partialBucket", () => {
  const now = new Date("2026-03-11T15:00:00Z");
  it("is the bucket holding today when the range reaches today", () => {
    expect(partialBucket({ startDate: "2026-03-01", endDate: "2026-03-11" }, "day", "UTC", now)).toBe("2026-03-11");
    expect(partialBucket({ startDate: "2026-01-01", endDate: "2026-03-11" }, "week", "UTC", now)).toBe("2026-03-09");
    expect(partialBucket({ startDate: "2026-01-01", endDate: "2026-03-11" }, "month", "UTC", now)).toBe("2026-03-01");
  });

  it("is none for a range that ended before today", () => {
    expect(partialBucket({ startDate: "2026-02-01", endDate: "2026-02-28" }, "day", "UTC", now)).toBeNull();
  });
});
