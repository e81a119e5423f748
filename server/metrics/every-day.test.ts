/**
 * The home's week, checked on each of the next 60 days of the demo data: what the end-to-end
 * journey expects (sums of raw rows in cents, e2e/support/expected.ts) and what the page shows
 * (the server's aggregation, then the page's formatter) must agree whatever the date, so no day
 * can turn the suite red.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { products } from "@/demo-upstream/test-helpers";
import { expectedRevenueChange, revenueCentsBetween } from "@/e2e/support/expected";
import { formatCurrency } from "@/shared/format";
import { compactChange } from "@/shared/metrics/comparison";
import { addDays, todayIn } from "@/shared/metrics/date-range";
import { ProductMetricsAggregator } from "./aggregate";

const DAYS = 60;
const AGAINST = "the 7 days before";
const WELL_FORMED = /^([↑↓]\d[\d,]*\.\d%|0\.0%|new|—)$/;

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
afterAll(() => upstream.close());

/** What the page shows for a week: the aggregator's totals, formatted as the tiles do. */
function pageRevenue(rows: Parameters<ProductMetricsAggregator["add"]>[0][], from: string, to: string): number {
  const aggregator = new ProductMetricsAggregator();
  for (const row of rows) if (row.date >= from && row.date <= to) aggregator.add(row);
  return aggregator.result(2).totals.revenue;
}

it(`the home's revenue and its change read the same to the journey and the page on each of the next ${DAYS} days`, async () => {
  // One read covers every window: from 13 days before today to the last day checked.
  const first = todayIn("America/New_York");
  const last = addDays(first, DAYS - 1);
  const rows = (await products(upstream, { startDate: addDays(first, -13), endDate: last })) as unknown as Parameters<
    ProductMetricsAggregator["add"]
  >[0][];
  const texts = new Set<string>();
  for (let offset = 0; offset < DAYS; offset++) {
    const today = addDays(first, offset);
    const weekStart = addDays(today, -6);
    const before = [addDays(today, -13), addDays(today, -7)] as const;
    const nowCents = revenueCentsBetween(rows, weekStart, today);
    const beforeCents = revenueCentsBetween(rows, ...before);
    const expected = expectedRevenueChange(nowCents, beforeCents, AGAINST);
    const shown = compactChange(pageRevenue(rows, weekStart, today), pageRevenue(rows, ...before), AGAINST);
    expect(shown, today).toEqual(expected);
    expect(shown.text, today).toMatch(WELL_FORMED);
    expect(formatCurrency(pageRevenue(rows, weekStart, today), "USD"), today).toBe(
      `$${(nowCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
    texts.add(shown.text);
  }
  // The check means something only if the days differ.
  expect(texts.size).toBeGreaterThan(10);
});
