import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  anomalyVerdict,
  directions,
  median,
  robustBaseline,
  sameWeekdayBefore,
  sensitivities,
  thresholdVerdict,
  type AnomalySettings,
} from "./anomaly";

const amount = fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true });
const history = fc.array(amount, { minLength: 4, maxLength: 8 });
const settings: fc.Arbitrary<AnomalySettings> = fc.record({
  direction: fc.constantFrom(...directions),
  sensitivity: fc.constantFrom(...sensitivities),
  minVolume: fc.constantFrom(0, 10, 1000),
});

describe("robust baseline (median and MAD)", () => {
  it("puts the median between the smallest and the largest value, and the spread above zero", () => {
    fc.assert(
      fc.property(history, (values) => {
        const center = median(values);
        expect(center).toBeGreaterThanOrEqual(Math.min(...values));
        expect(center).toBeLessThanOrEqual(Math.max(...values));
        expect(robustBaseline(values).spread).toBeGreaterThan(0);
      }),
    );
  });

  it("is not dragged by one outlier week", () => {
    expect(median([100, 102, 98, 101, 99, 100_000])).toBe(100.5);
    expect(robustBaseline([100, 102, 98, 101, 99, 100_000]).spread).toBeLessThan(0.06);
  });

  it("judges by ratios: a channel whose days swing by a third still shows a fall to near zero", () => {
    // The demo's Facebook revenue on eight Wednesdays, then a day after its sales stopped.
    const weeks = [4080, 2843, 3626, 1910, 3902, 2924, 1502, 2630];
    const rule = { direction: "down", minVolume: 200 } as const;
    expect(anomalyVerdict(208, weeks, { ...rule, sensitivity: "low" }).fires).toBe(true);
    expect(anomalyVerdict(1400, weeks, { ...rule, sensitivity: "medium" }).fires).toBe(false);
    expect(anomalyVerdict(2 * 4080, weeks, { ...rule, direction: "up", sensitivity: "medium" }).fires).toBe(false);
  });
});

describe("anomaly verdict", () => {
  it("flags a steady channel's drop to near zero, and not an ordinary week", () => {
    const weeks = [1000, 1040, 980, 1010, 995, 1020];
    const rule = { direction: "down", sensitivity: "medium", minVolume: 100 } as const;
    expect(anomalyVerdict(20, weeks, rule).fires).toBe(true);
    expect(anomalyVerdict(970, weeks, rule).fires).toBe(false);
    expect(anomalyVerdict(5000, weeks, rule).fires).toBe(false);
    expect(anomalyVerdict(5000, weeks, { ...rule, direction: "both" }).fires).toBe(true);
  });

  it("never fires without four comparable weeks", () => {
    fc.assert(
      fc.property(amount, fc.array(amount, { maxLength: 3 }), settings, (value, weeks, rule) => {
        const verdict = anomalyVerdict(value, weeks, rule);
        expect(verdict.fires).toBe(false);
        expect(verdict.quiet).toBe("too_little_history");
      }),
    );
  });

  it("never fires in the direction the rule does not watch, nor at the median itself", () => {
    fc.assert(
      fc.property(amount, history, settings, (value, weeks, rule) => {
        const center = median(weeks);
        const verdict = anomalyVerdict(value, weeks, rule);
        if (rule.direction === "down" && value >= center) expect(verdict.fires).toBe(false);
        if (rule.direction === "up" && value <= center) expect(verdict.fires).toBe(false);
        expect(anomalyVerdict(center, weeks, rule).fires).toBe(false);
      }),
    );
  });

  it("fires on both directions exactly when it fires up or down", () => {
    fc.assert(
      fc.property(amount, history, settings, (value, weeks, rule) => {
        const on = (direction: AnomalySettings["direction"]) => anomalyVerdict(value, weeks, { ...rule, direction }).fires;
        expect(on("both")).toBe(on("up") || on("down"));
      }),
    );
  });

  it("fires at a higher sensitivity whenever it fires at a lower one", () => {
    fc.assert(
      fc.property(amount, history, settings, (value, weeks, rule) => {
        const on = (sensitivity: AnomalySettings["sensitivity"]) => anomalyVerdict(value, weeks, { ...rule, sensitivity }).fires;
        if (on("low")) expect(on("medium")).toBe(true);
        if (on("medium")) expect(on("high")).toBe(true);
      }),
    );
  });

  it("keeps small numbers quiet: below the minimum volume in value and baseline, nothing fires", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 99, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 99, noNaN: true }), { minLength: 4, maxLength: 8 }),
        settings,
        (value, weeks, rule) => {
          expect(anomalyVerdict(value, weeks, { ...rule, minVolume: 100 }).fires).toBe(false);
        },
      ),
    );
  });

  it("judges a move the same in any currency unit, for amounts well above the spread's floor", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1000, max: 1e6, noNaN: true }),
        fc.array(fc.double({ min: 1000, max: 1e6, noNaN: true }), { minLength: 4, maxLength: 8 }),
        settings,
        (value, weeks, rule) => {
          const plain = anomalyVerdict(value, weeks, { ...rule, minVolume: 0 });
          const scaled = anomalyVerdict(
            value * 100,
            weeks.map((week) => week * 100),
            { ...rule, minVolume: 0 },
          );
          // Only ln(1 + x) differs from ln(x) between the scales, so scores agree closely.
          expect(Math.abs(scaled.score! - plain.score!)).toBeLessThanOrEqual(0.05 * Math.abs(plain.score!) + 0.1);
        },
      ),
    );
  });
});

describe("threshold verdict and comparable days", () => {
  it("fires strictly past the threshold", () => {
    expect(thresholdVerdict(99, "below", 100).fires).toBe(true);
    expect(thresholdVerdict(100, "below", 100).fires).toBe(false);
    expect(thresholdVerdict(101, "above", 100).fires).toBe(true);
  });

  it("lists the same weekday of earlier weeks across a daylight-saving change", () => {
    expect(sameWeekdayBefore("2026-11-04", 4)).toEqual(["2026-10-28", "2026-10-21", "2026-10-14", "2026-10-07"]);
    fc.assert(
      fc.property(fc.date({ min: new Date("2000-01-01"), max: new Date("2090-01-01"), noInvalidDate: true }), (at) => {
        const date = at.toISOString().slice(0, 10);
        const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
        for (const earlier of sameWeekdayBefore(date)) expect(new Date(`${earlier}T00:00:00Z`).getUTCDay()).toBe(weekday);
      }),
    );
  });
});
