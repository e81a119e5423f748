import type { SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { formatPercent } from "@/shared/format";
import { addDays, bucketStart, datesOf, daysBetween, dayCount, todayIn, type DateRange } from "./date-range";
import { relativeChange } from "./presentation";

export type Granularity = "day" | "week" | "month";
type SeriesMetric = "revenue" | "orders" | "units";

/** Daily points up to about a quarter, weekly up to a year, monthly beyond: a readable number of points. */
export function autoGranularity(range: DateRange): Granularity {
  const days = dayCount(range);
  return days <= 92 ? "day" : days <= 366 ? "week" : "month";
}

/** The comparison series moved onto the current period's dates day by day; points outside the comparison period are left out. */
export function alignToCurrent(series: readonly SeriesPoint[], current: DateRange, comparison: DateRange): SeriesPoint[] {
  const shift = daysBetween(comparison.startDate, current.startDate);
  return series
    .filter((point) => point.date >= comparison.startDate && point.date <= comparison.endDate)
    .map((point) => ({ ...point, date: addDays(point.date, shift) }));
}

/** One value per day of the range, channels summed, 0 for a day without rows: what a sparkline draws. */
export function dailyTotals(series: readonly SeriesPoint[], range: DateRange, metric: SeriesMetric): number[] {
  const byDate = new Map<string, number>();
  for (const point of series) byDate.set(point.date, (byDate.get(point.date) ?? 0) + point[metric]);
  return datesOf(range).map((date) => byDate.get(date) ?? 0);
}

/** The channels summed into buckets: the comparison line of the time chart. */
export function bucketTotals(series: readonly SeriesPoint[], granularity: Granularity, metric: SeriesMetric): Map<string, number> {
  const totals = new Map<string, number>();
  for (const point of series) {
    const bucket = bucketStart(point.date, granularity);
    totals.set(bucket, (totals.get(bucket) ?? 0) + point[metric]);
  }
  return totals;
}

/** The bucket holding today (store-local) when the range reaches it, drawn as "so far" rather than as a drop. */
export function partialBucket(range: DateRange, granularity: Granularity, timeZone: string, now?: Date): string | null {
  const today = todayIn(timeZone, now);
  if (today < range.startDate || today > range.endDate) return null;
  return bucketStart(today, granularity);
}

export interface CompactChange {
  /** "↑3.1%", "↓0.8%", "0%", "new" or "—". */
  text: string;
  tone: "up" | "down" | "flat" | "none";
  /** The long form, for a tooltip or screen readers. */
  sentence: string;
}

/** A signed change in a few characters, with its sentence; "new" when the comparison had nothing. */
export function compactChange(current: number | null, previous: number | null | undefined, against: string): CompactChange {
  if (current !== null && previous === 0 && current !== 0)
    return { text: "new", tone: "up", sentence: `Nothing in ${against}, so there is no percentage to show.` };
  const change = relativeChange(current, previous);
  if (change === null) return { text: "—", tone: "none", sentence: `No figure to compare with in ${against}.` };
  const magnitude = formatPercent(Math.abs(change));
  if (magnitude === formatPercent(0)) return { text: magnitude, tone: "flat", sentence: `About the same as ${against}.` };
  const up = change > 0;
  return {
    text: `${up ? "↑" : "↓"}${magnitude}`,
    tone: up ? "up" : "down",
    sentence: `${magnitude} ${up ? "more" : "less"} than ${against}.`,
  };
}
