import type { ChannelSummary, ProductSummary, SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { bucketStart } from "./date-range";
import type { SortColumn } from "./view-state";

/** A product table row with its derived figures. */
export interface ProductRow extends ProductSummary {
  averagePrice: number | null;
  revenuePerOrder: number | null;
  share: number | null;
}

export function productRows(products: readonly ProductSummary[], totalRevenue: number): ProductRow[] {
  return products.map((product) => ({
    ...product,
    averagePrice: product.units > 0 ? product.revenue / product.units : null,
    revenuePerOrder: product.orders > 0 ? product.revenue / product.orders : null,
    share: totalRevenue > 0 ? product.revenue / totalRevenue : null,
  }));
}

/** Search by name, SKU or ID; sort (empty values last, whatever the direction); one page. */
export function tablePage(
  rows: readonly ProductRow[],
  options: { q: string; sort: SortColumn; direction: "asc" | "desc"; page: number; pageSize: number },
) {
  const needle = options.q.trim().toLowerCase();
  const matching = needle
    ? rows.filter((row) => [row.name, row.sku, row.productId].some((value) => value?.toLowerCase().includes(needle)))
    : [...rows];
  const sign = options.direction === "asc" ? 1 : -1;
  const value = (row: ProductRow) => (options.sort === "name" ? (row.name ?? row.productId) : row[options.sort]);
  matching.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x === null) return y === null ? 0 : 1;
    if (y === null) return -1;
    const order = typeof x === "string" ? x.localeCompare(String(y)) : x - (y as number);
    return order * sign || a.productId.localeCompare(b.productId);
  });
  const pageCount = Math.max(1, Math.ceil(matching.length / options.pageSize));
  const page = Math.min(options.page, pageCount);
  return { rows: matching.slice((page - 1) * options.pageSize, page * options.pageSize), matching: matching.length, page, pageCount };
}

/** The top `count` products by revenue, the rest summed as "Other": the bars add up to the total, refunds (negative revenue) included. */
export function topProducts(products: readonly ProductSummary[], count: number): { name: string; revenue: number }[] {
  const sorted = [...products].sort((a, b) => b.revenue - a.revenue);
  const top = sorted.slice(0, count).map((product) => ({ name: product.name ?? product.productId, revenue: product.revenue }));
  const rest = sorted.slice(count).reduce((sum, product) => sum + product.revenue, 0);
  return rest !== 0 ? [...top, { name: "Other", revenue: rest }] : top;
}

/** One bucket of the chart; channel values sit in a map of their own, since a channel may be called "bucket" or "__proto__". */
interface ChartPoint {
  bucket: string;
  values: Record<string, number>;
}

/** The day × channel series summed into day, week or month buckets, one value per channel. */
export function bucketSeries(
  series: readonly SeriesPoint[],
  granularity: "day" | "week" | "month",
  metric: "revenue" | "orders",
): { points: ChartPoint[]; channels: string[] } {
  const buckets = new Map<string, ChartPoint>();
  const channels = new Set<string>();
  for (const point of series) {
    const bucket = bucketStart(point.date, granularity);
    let entry = buckets.get(bucket);
    if (!entry) buckets.set(bucket, (entry = { bucket, values: Object.create(null) as Record<string, number> }));
    entry.values[point.channel] = (entry.values[point.channel] ?? 0) + point[metric];
    channels.add(point.channel);
  }
  const sortedChannels = [...channels].sort();
  const points = [...buckets.values()].sort((a, b) => (a.bucket < b.bucket ? -1 : 1));
  for (const point of points) for (const channel of sortedChannels) point.values[channel] ??= 0;
  return { points, channels: sortedChannels };
}

/** The change from the comparison period, or null when there is nothing to compare with. */
export function relativeChange(current: number | null, previous: number | null | undefined): number | null {
  if (current === null || previous === null || previous === undefined || previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}

export function channelShares(channels: readonly ChannelSummary[]) {
  const total = channels.reduce((sum, channel) => sum + channel.revenue, 0);
  return channels.map((channel) => ({ ...channel, share: total > 0 ? channel.revenue / total : 0 }));
}

/** A label in lines of at most `width` characters broken between words; past `maxLines` the last ends in "…" (the tooltip shows all). */
export function wrapLabel(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let rest = word; rest;) {
      const candidate = line ? `${line} ${rest}` : rest;
      if (candidate.length <= width) {
        line = candidate;
        rest = "";
      } else if (line) {
        lines.push(line);
        line = "";
      } else {
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, width - 1)}…`;
  return kept;
}
