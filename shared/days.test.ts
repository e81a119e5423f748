import { describe, expect, it } from "vitest";
import { addDays, datesFrom, daysAfter, daysBetween } from "./days";

describe("day arithmetic", () => {
  it("adds days across months, leap days and years", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
  });

  it("counts the days between two dates, negative backwards, and lists a range with both ends", () => {
    expect(daysBetween("2024-02-01", "2024-03-01")).toBe(29);
    expect(daysBetween("2024-03-01", "2024-02-01")).toBe(-29);
    expect(datesFrom("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(datesFrom("2024-03-02", "2024-03-01")).toEqual([]);
  });

  it("moves an instant by whole days", () => {
    expect(daysAfter(new Date("2026-03-28T12:00:00Z"), 2).toISOString()).toBe("2026-03-30T12:00:00.000Z");
    expect(daysAfter(new Date("2026-03-28T12:00:00Z"), -30).toISOString()).toBe("2026-02-26T12:00:00.000Z");
  });
});
