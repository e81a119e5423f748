import "server-only";
import { processSingleton } from "@/server/runtime/singleton";
import { currencyDecimals } from "@/shared/format";
import type { ComparisonMode, MetricsFilters, ProductBreakdown, ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { BreakdownAggregator, ProductMetricsAggregator } from "./aggregate";
import { biggestChanges } from "./changes";
import { comparisonRange, dayCount, daysBetween } from "@/shared/metrics/date-range";
import type { UpstreamClient } from "@/server/upstream/client";
import { openProductRows, type ProductRows } from "./product-rows";
import { ViewCache } from "./view-cache";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { rollupFilterOf, type ReadProgress } from "@/server/rollups/reader";
import { rollupView } from "@/server/rollups/view";

/** One minute is enough to move between views of one range; 50 views bound the memory. */
const viewCache = processSingleton("productMetricsCache", () => new ViewCache<ProductMetricsView>(60_000, 50));

interface AggregationHooks {
  /** Called once every upstream read has answered 200: from here on, errors arrive mid-stream. */
  onOpened?: () => void;
  onProgress?: (rowsRead: number) => void;
  /** Days read from the upstream so far (with the day rollups, or as far as the rows have come). */
  onDays?: (progress: ReadProgress) => void;
}

/** The rows' sums, made off the event loop (ROW_WORKERS); `progress` is told of the rows read and the last one's date. */
async function sumRows(rows: ProductRows, progress: (rowsRead: number, lastDay?: string) => void): Promise<ProductMetricsAggregator> {
  for await (const summed of rows.summed({ mode: "sums" })) {
    progress(summed.rows, summed.lastDay);
    if (summed.sums) return new ProductMetricsAggregator(summed.sums);
  }
  return new ProductMetricsAggregator();
}

/**
 * The reads of a view (its range, and its comparison's) as one progress: rows read, and the days
 * up to each read's last row out of all their days, as the upstream sends a range day by day.
 */
function readsProgress(ranges: { startDate: string; endDate: string }[], hooks: AggregationHooks) {
  const read = ranges.map(() => ({ rows: 0, days: 0, lastDay: undefined as string | undefined }));
  const daysToRead = ranges.reduce((sum, range) => sum + dayCount(range), 0);
  return (index: number) => (rowsRead: number, lastDay?: string) => {
    const range = ranges[index]!;
    const mine = read[index]!;
    mine.rows = rowsRead;
    // Never backwards, and never past the range, whatever order the rows come in.
    if (lastDay) mine.days = Math.max(mine.days, Math.min(dayCount(range), Math.max(0, daysBetween(range.startDate, lastDay) + 1)));
    mine.lastDay = lastDay ?? mine.lastDay;
    const rows = read.reduce((sum, one) => sum + one.rows, 0);
    // Told after each chunk of the body; the route sends the latest when the page is ready for it.
    const day = read[0]!.lastDay ?? mine.lastDay;
    if (hooks.onDays && day) hooks.onDays({ daysRead: read.reduce((sum, one) => sum + one.days, 0), daysToRead, rowsRead: rows, day });
    else hooks.onProgress?.(rows);
  };
}

/** One read of a view: the store's rows in `filters`, and in its comparison's range when `compare` names one. */
interface ViewRead {
  upstream: UpstreamClient;
  storeUrl: string;
  filters: MetricsFilters;
  compare: ComparisonMode | undefined;
  hooks: AggregationHooks;
}

async function aggregate(read: ViewRead): Promise<ProductMetricsView> {
  const { upstream, storeUrl, filters, compare, hooks } = read;
  const rollups = settings().rollups;
  const filter = rollups.enabled ? rollupFilterOf(filters) : null;
  if (!filter) return fullRead(read);
  // The process's handle: every rollup statement runs with the reach of the work it belongs to
  // (the route's stores, or a job's store), which holds `storeUrl`.
  const db = await database();
  return rollupView(
    upstream,
    storeUrl,
    filters,
    filter,
    compare,
    { db, ...rollups },
    { onOpened: hooks.onOpened, onProgress: hooks.onDays },
    () => fullRead(read),
  );
}

/** The view read whole from the upstream's rows (ROLLUPS=off, or no day of it held). */
async function fullRead({ upstream, storeUrl, filters, compare, hooks }: ViewRead): Promise<ProductMetricsView> {
  const comparisonFilters = compare ? { ...filters, ...comparisonRange(filters, compare) } : undefined;
  const [main, previous] = await Promise.all([
    openProductRows(upstream, storeUrl, filters),
    comparisonFilters ? openProductRows(upstream, storeUrl, comparisonFilters) : undefined,
  ]);
  hooks.onOpened?.();

  const progress = readsProgress(comparisonFilters ? [filters, comparisonFilters] : [filters], hooks);
  const [current, earlier] = await Promise.all([
    sumRows(main, progress(0)),
    previous ? sumRows(previous, progress(1)) : new ProductMetricsAggregator(),
  ]);

  const currency = current.currency ?? earlier.currency;
  const decimals = currency ? currencyDecimals(currency) : 2;
  const before = earlier.result(decimals);
  return {
    startDate: filters.startDate,
    endDate: filters.endDate,
    currency,
    ...current.result(decimals),
    ...(comparisonFilters
      ? {
          comparison: {
            startDate: comparisonFilters.startDate,
            endDate: comparisonFilters.endDate,
            totals: before.totals,
            series: before.series,
            changes: biggestChanges(current.revenues(), earlier.revenues(), decimals),
          },
        }
      : {}),
  };
}

/**
 * The page's view of the product metrics, from the cache when the same read was made a
 * moment ago. Identical reads in flight share one aggregation, which stops only when every
 * reader's `signal` (by default its client's) has aborted.
 */
export function productMetricsView(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  compare: ComparisonMode | undefined,
  hooks: AggregationHooks = {},
  signal?: AbortSignal,
): { view: Promise<ProductMetricsView>; cached: boolean } {
  const key = ViewCache.key(upstream.keyIdentity, upstream.organizationId, storeUrl, JSON.stringify(filters), compare);
  const load = (shared: AbortSignal) => aggregate({ upstream: upstream.with({ signal: shared }), storeUrl, filters, compare, hooks });
  const { value, hit } = viewCache.get(key, load, signal ?? upstream.signal);
  return { view: value, cached: hit };
}

/** One product's rows by channel and ad: a read filtered to that product, so it stays small. */
export async function productBreakdown(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  productId: string,
): Promise<ProductBreakdown> {
  const rows = await openProductRows(upstream, storeUrl, { ...filters, filterProductId: productId });
  const breakdown = new BreakdownAggregator();
  let currency: string | null = null;
  for await (const batch of rows.batches) {
    for (const row of batch) {
      currency ??= row.currency ?? null;
      breakdown.add(row);
    }
  }
  return breakdown.result(productId, currency ? currencyDecimals(currency) : 2);
}
