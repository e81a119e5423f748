import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, comparisonRange, datesOf } from "@/shared/metrics/date-range";
import { alignToCurrent, bucketTotals, dailyTotals } from "@/shared/metrics/comparison";
import { ProductMetricsAggregator, type MetricRow } from "./aggregate";

const channels = ["google", "facebook", "email"];
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** A current period, a comparison mode, and raw rows spread over both periods and around them. */
const scenario = fc
  .record({
    startOffset: fc.integer({ min: 0, max: 3000 }),
    length: fc.integer({ min: 1, max: 120 }),
    mode: fc.constantFrom("previous" as const, "year" as const),
    rows: fc.array(
      fc.record({
        dayOffset: fc.integer({ min: -500, max: 130 }),
        channel: fc.constantFrom(...channels),
        revenue: fc.integer({ min: -5000, max: 100000 }).map((cents) => cents / 100),
        orders: fc.integer({ min: 0, max: 20 }),
      }),
      { maxLength: 200 },
    ),
  })
  .map(({ startOffset, length, mode, rows }) => {
    const startDate = addDays("2020-01-01", startOffset);
    const current = { startDate, endDate: addDays(startDate, length - 1) };
    const rawRows: MetricRow[] = rows.map((row) => ({
      date: addDays(startDate, row.dayOffset),
      channel: row.channel,
      product_id: "p1",
      orders: row.orders,
      units: row.orders,
      revenue: row.revenue,
    }));
    return { current, mode, comparison: comparisonRange(current, mode), rawRows };
  });

/** What the server answers for the comparison period: its rows only, aggregated. */
function comparisonSeries(rows: MetricRow[], range: { startDate: string; endDate: string }) {
  const aggregator = new ProductMetricsAggregator();
  for (const row of rows) if (row.date >= range.startDate && row.date <= range.endDate) aggregator.add(row);
  return aggregator.result(2).series;
}

const cents = (value: number) => Math.round(value * 100);

describe("the comparison period aligned by day", () => {
  it("puts each comparison day's raw revenue on the matching current day, and nothing else", () => {
    fc.assert(
      fc.property(scenario, ({ current, mode, comparison, rawRows }) => {
        const aligned = alignToCurrent(comparisonSeries(rawRows, comparison), current, comparison);
        const perDay = dailyTotals(aligned, current, "revenue");
        const comparisonDates = datesOf(comparison);
        expect(perDay).toHaveLength(comparisonDates.length);
        comparisonDates.forEach((date, index) => {
          const raw = rawRows.filter((row) => row.date === date).reduce((sum, row) => sum + row.revenue, 0);
          expect(cents(perDay[index]!)).toBe(cents(raw));
        });
        // The whole comparison period, and only it, is carried over.
        const rawTotal = rawRows
          .filter((row) => row.date >= comparison.startDate && row.date <= comparison.endDate)
          .reduce((sum, row) => sum + row.orders, 0);
        expect(dailyTotals(aligned, current, "orders").reduce((a, b) => a + b, 0)).toBe(rawTotal);
        expect(aligned.every((point) => point.date >= current.startDate && point.date <= current.endDate)).toBe(true);
        if (mode === "year") expect(weekday(comparison.startDate)).toBe(weekday(current.startDate));
      }),
    );
  });

  it("sums the aligned days into the same weeks and months as the current period", () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom("week" as const, "month" as const), ({ current, comparison, rawRows }, granularity) => {
        const aligned = alignToCurrent(comparisonSeries(rawRows, comparison), current, comparison);
        const buckets = bucketTotals(aligned, granularity, "orders");
        const inComparison = rawRows.filter((row) => row.date >= comparison.startDate && row.date <= comparison.endDate);
        expect([...buckets.values()].reduce((a, b) => a + b, 0)).toBe(inComparison.reduce((sum, row) => sum + row.orders, 0));
      }),
    );
  });
});
