import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dailyRevenue, dayFractionAt, daysInMonth, HISTORY_DAYS, monthRange, pacing, weekdayAverages } from "./pacing";

const DAY_MS = 86_400_000;
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Daily revenue from `from` for `days` days, by a rule of the date. */
function series(from: string, days: number, revenue: (date: string) => number): Record<string, number> {
  const daily: Record<string, number> = {};
  for (let day = 0; day < days; day++) daily[shift(from, day)] = revenue(shift(from, day));
  return daily;
}

describe("pacing against a monthly target", () => {
  it("knows the months' lengths, leap years included", () => {
    expect(daysInMonth("2026-02")).toBe(28);
    expect(daysInMonth("2028-02")).toBe(29);
    expect(monthRange("2026-04")).toEqual({ startDate: "2026-04-01", endDate: "2026-04-30" });
  });

  it("projects a steady store onto exactly its daily rate, and pro-rates the target to the time passed", () => {
    const today = "2026-04-11";
    const daily = series(shift(today, -HISTORY_DAYS), HISTORY_DAYS + 1, () => 100);
    // Today is half gone: half of today's 100 so far.
    daily[today] = 50;
    const result = pacing({ target: 3_000, month: "2026-04", today, dayFraction: 0.5, daily });
    expect(result.monthToDate).toBe(1_050);
    expect(result.daysElapsed).toBe(10.5);
    expect(result.proRatedTarget).toBeCloseTo(1_050);
    expect(result.paceRatio).toBeCloseTo(1);
    expect(result.projected).toBeCloseTo(3_000);
    expect(result.status).toBe("on_track");
    expect(result.weighted).toBe(true);
  });

  it("weights the rest of the month by weekday: weekends that sell double count double", () => {
    const today = "2026-04-06"; // a Monday
    const weekend = (date: string) => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
    const daily = series(shift(today, -HISTORY_DAYS), HISTORY_DAYS, (date) => (weekend(date) ? 200 : 100));
    Object.assign(
      daily,
      series("2026-04-01", 5, (date) => (weekend(date) ? 200 : 100)),
    );
    const result = pacing({ target: 4_000, month: "2026-04", today, dayFraction: 0, daily });
    const rest = series(today, 25, (date) => (weekend(date) ? 200 : 100));
    expect(result.projected).toBeCloseTo(result.monthToDate + Object.values(rest).reduce((a, b) => a + b, 0));
    expect(weekdayAverages(daily, today)).toEqual([200, 100, 100, 100, 100, 100, 200]);
  });

  it("projects a new store from the days it has, and from the month's own rate before it has any", () => {
    const daily = series("2026-04-01", 10, () => 30);
    const result = pacing({ target: 900, month: "2026-04", today: "2026-04-11", dayFraction: 0, daily });
    expect(result.projected).toBeCloseTo(900);
    const first = pacing({ target: 900, month: "2026-04", today: "2026-04-01", dayFraction: 0.5, daily: { "2026-04-01": 20 } });
    expect(first.weighted).toBe(false);
    expect(first.projected).toBeCloseTo(20 + (20 / 0.5) * 29.5);
  });

  it("never projects less than the month so far, and equals it once the month is over", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 28 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 10_000, noNaN: true }), { minLength: 90, maxLength: 90 }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        (dayOfMonth, dayFraction, amounts, target) => {
          const today = `2026-03-${String(dayOfMonth).padStart(2, "0")}`;
          const daily = series(shift(today, -HISTORY_DAYS), HISTORY_DAYS + 1, (date) => amounts[(Date.parse(date) / DAY_MS) % 90]!);
          const result = pacing({ target, month: "2026-03", today, dayFraction, daily });
          expect(result.projected).toBeGreaterThanOrEqual(result.monthToDate - 1e-6);
          expect(result.proRatedTarget).toBeLessThanOrEqual(target + 1e-6);
          const after = pacing({ target, month: "2026-02", today, dayFraction, daily });
          expect(after.projected).toBeCloseTo(after.monthToDate);
          expect(after.daysElapsed).toBe(28);
        },
      ),
    );
  });

  it("reads the month so far and the weekday weights from the raw rows, for the store or one channel", () => {
    const row = fc.record({
      offset: fc.integer({ min: -70, max: 0 }),
      channel: fc.constantFrom("google", "facebook", "email"),
      cents: fc.integer({ min: 0, max: 500_000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(row, { maxLength: 150 }),
        fc.constantFrom(null, "google"),
        (dayOfMonth, raw, channel) => {
          const today = `2026-04-${String(dayOfMonth).padStart(2, "0")}`;
          const rows = raw.map((r) => ({ date: shift(today, r.offset), channel: r.channel, revenue: r.cents / 100 }));
          const mine = rows.filter((r) => !channel || r.channel === channel);
          const result = pacing({ target: 10_000, month: "2026-04", today, dayFraction: 1, daily: dailyRevenue(rows, channel) });
          const monthCents = mine
            .filter((r) => r.date >= "2026-04-01" && r.date <= today)
            .reduce((sum, r) => sum + Math.round(r.revenue * 100), 0);
          expect(Math.round(result.monthToDate * 100)).toBe(monthCents);
          // The rest of the month: each day brings its weekday's average over the 56 days before today.
          const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
          const history = mine.filter((r) => r.date < today && r.date >= shift(today, -HISTORY_DAYS));
          const present = new Set(history.map((r) => r.date));
          const average = (weekday: number) => {
            const days = [...present].filter((date) => weekdayOf(date) === weekday);
            if (days.length === 0) return null;
            return history.filter((r) => weekdayOf(r.date) === weekday).reduce((sum, r) => sum + r.revenue, 0) / days.length;
          };
          const known = [0, 1, 2, 3, 4, 5, 6].map(average).filter((value): value is number => value !== null);
          let rest = 0;
          for (let date = shift(today, 1); date <= "2026-04-30"; date = shift(date, 1)) {
            const expected = average(weekdayOf(date));
            rest +=
              expected ?? (known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : result.monthToDate / result.daysElapsed);
          }
          expect(result.projected).toBeCloseTo(result.monthToDate + rest, 4);
        },
      ),
    );
  });

  it("reads how much of the store's day has passed from its wall clock", () => {
    expect(dayFractionAt("2026-04-11T00:00")).toBe(0);
    expect(dayFractionAt("2026-04-11T12:00")).toBe(0.5);
    expect(dayFractionAt("2026-04-11T18:36")).toBeCloseTo(0.775);
  });
});
