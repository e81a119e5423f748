import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, dayCount } from "./date-range";
import { stepRange } from "./step-period";

describe("stepRange", () => {
  it("moves a range by its own length", () => {
    expect(stepRange({ startDate: "2026-01-01", endDate: "2026-01-31" }, -1, "2026-11-24")).toEqual({
      startDate: "2025-12-01",
      endDate: "2025-12-31",
    });
    expect(stepRange({ startDate: "2025-12-01", endDate: "2025-12-31" }, 1, "2026-11-24")).toEqual({
      startDate: "2026-01-01",
      endDate: "2026-01-31",
    });
  });

  it("never goes past today, and keeps the length", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 120 }), (back, length) => {
        const today = "2026-11-24";
        const range = { startDate: addDays(today, -back - length + 1), endDate: addDays(today, -back) };
        const next = stepRange(range, 1, today);
        if (back === 0) {
          expect(next).toBeNull();
          return;
        }
        expect(next!.endDate <= today).toBe(true);
        expect(dayCount(next!)).toBe(length);
        expect(dayCount(stepRange(range, -1, today)!)).toBe(length);
      }),
    );
  });
});
