import { addDays, bucketStart, type DateRange } from "./date-range";
import type { Granularity } from "./comparison";
import { daysBetween } from "@/shared/days";

/** The key under which the smallest channels are summed. */
export const OTHER_KEY = "__other";

/** The channels a chart draws alone: all up to `max`, else the largest `max - 1` by revenue and the rest as "Other". */
export function groupChannels(
  channels: readonly { channel: string; revenue: number }[],
  max: number,
): { drawn: string[]; grouped: string[] } {
  const ranked = [...channels].sort((a, b) => b.revenue - a.revenue || a.channel.localeCompare(b.channel)).map((entry) => entry.channel);
  if (ranked.length <= max) return { drawn: ranked, grouped: [] };
  return { drawn: ranked.slice(0, max - 1), grouped: ranked.slice(max - 1) };
}

/** One bucket's values per channel, as the chart draws them: the drawn channels, and the rest under OTHER_KEY. */
export function groupValues(values: Record<string, number>, drawn: readonly string[]): Record<string, number> {
  const grouped: Record<string, number> = Object.fromEntries(drawn.map((channel) => [channel, values[channel] ?? 0]));
  let other = 0;
  let hasOther = false;
  for (const [channel, value] of Object.entries(values)) {
    if (drawn.includes(channel)) continue;
    other += value;
    hasOther = true;
  }
  if (hasOther) grouped[OTHER_KEY] = other;
  return grouped;
}

const isCalendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** The last day of the bucket that starts on `bucket`. */
function bucketEnd(bucket: string, granularity: Granularity): string {
  if (granularity === "day") return bucket;
  if (granularity === "week") return addDays(bucket, 6);
  const [year, month] = [Number(bucket.slice(0, 4)), Number(bucket.slice(5, 7))];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  return addDays(next, -1);
}

/** Days of a bucket that fall inside the range. */
export function daysInRange(bucket: string, granularity: Granularity, range: DateRange): number {
  const start = bucket > range.startDate ? bucket : range.startDate;
  const last = bucketEnd(bucket, granularity);
  const end = last < range.endDate ? last : range.endDate;
  return end < start ? 0 : daysBetween(start, end) + 1;
}

/** The first and last buckets a range covers only in part, with the days each holds, so the chart can say so. */
export function partialEdges(range: DateRange, granularity: Granularity): { bucket: string; from: string; to: string }[] {
  // A range that is not two calendar dates (an upstream answering oddly) has no edges to name.
  if (granularity === "day" || !isCalendarDate(range.startDate) || !isCalendarDate(range.endDate)) return [];
  const edges: { bucket: string; from: string; to: string }[] = [];
  const first = bucketStart(range.startDate, granularity);
  const last = bucketStart(range.endDate, granularity);
  const firstEnd = bucketEnd(first, granularity);
  if (first !== range.startDate || firstEnd > range.endDate)
    edges.push({ bucket: first, from: range.startDate, to: firstEnd < range.endDate ? firstEnd : range.endDate });
  if (last !== first && bucketEnd(last, granularity) > range.endDate) edges.push({ bucket: last, from: last, to: range.endDate });
  return edges;
}
