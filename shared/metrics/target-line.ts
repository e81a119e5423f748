import type { Granularity } from "./comparison";
import { bucketStart, datesOf, type DateRange } from "./date-range";
import { daysInMonth } from "./pacing";

/**
 * The Target line of a chart: each bucket's share of the monthly targets, pro-rated by day (a
 * month's amount over its days), counting only the range's days of months that have a target.
 * A bucket without one such day has no target (null): the line is drawn where a target exists only.
 * `amounts`: each month's (YYYY-MM) target amount.
 */
export function targetPerBucket(
  range: DateRange,
  granularity: Granularity,
  amounts: ReadonlyMap<string, number>,
): Map<string, number | null> {
  const byBucket = new Map<string, number | null>();
  for (const date of datesOf(range)) {
    const bucket = bucketStart(date, granularity);
    const month = date.slice(0, 7);
    const amount = amounts.get(month);
    const sofar = byBucket.get(bucket) ?? null;
    byBucket.set(bucket, amount === undefined ? sofar : (sofar ?? 0) + amount / daysInMonth(month));
  }
  return byBucket;
}
