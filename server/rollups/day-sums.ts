import "server-only";
import type { UpstreamClient } from "@/server/upstream/client";
import type { DimensionSource } from "@/shared/schemas/product-metrics";
import type { DayCells } from "./cells";
import { cellMatches, type CellFilter } from "./range-summary";
import type { UpstreamRowFilters } from "./filter-key";
import { readRange, type RollupPolicy } from "./reader";
import { queueFillsQuietly } from "./fill-job";
import { storedDaySums, type RollupScope } from "./repository";

interface Sums {
  revenue: number;
  orders: number;
  units: number;
}

/** One period's sums (a store-local day, or an hour of the alert checks' raw reads): the whole, by channel and by product. */
export interface PeriodSums {
  total: Sums;
  channels: Map<string, Sums>;
  products: Map<string, Sums>;
}

/** A store's days of a range, read once through the rollups, then summed day by day for any channel and product filter. */
export interface DaysRead {
  /** The first currency the range's rows name. */
  currency: string | null;
  /** Product names by ID: the first a stored range names, then each day read from the upstream, later days last. */
  productNames: Map<string, string>;
  daysFromRollups: number;
  daysFromUpstream: number;
  upstreamRequests: number;
  /** The closed days not held: what a fill should store. */
  toFill: string[];
  /** The days that have rows within the filter, each with its sums. */
  sums(filter: CellFilter): Promise<Map<string, PeriodSums>>;
}

const DAY_MS = 86_400_000;
const zero = (): Sums => ({ revenue: 0, orders: 0, units: 0 });

export function addTo(sums: Sums, from: Sums) {
  sums.revenue += from.revenue;
  sums.orders += from.orders;
  sums.units += from.units;
}

export function add(into: Map<string, Sums>, key: string, from: Sums) {
  let sums = into.get(key);
  if (!sums) into.set(key, (sums = zero()));
  addTo(sums, from);
}

/** The period's sums in `days`, made empty on first use. */
export function periodOf(days: Map<string, PeriodSums>, day: string): PeriodSums {
  let found = days.get(day);
  if (!found) days.set(day, (found = { total: zero(), channels: new Map(), products: new Map() }));
  return found;
}

/**
 * Reads a range's days the way a view does (held fresh days from the database; missing, stale
 * and recent ones from the upstream, one request per run of consecutive days), unfiltered, so
 * that every rule of the store shares the one read and only sums differently. The days read
 * from the upstream are kept whole in memory until the read is dropped: recent days, or a cold
 * range once.
 */
export async function readDays(
  upstream: UpstreamClient,
  storeUrl: string,
  range: { startDate: string; endDate: string; dimension_source?: DimensionSource } & UpstreamRowFilters,
  policy: RollupPolicy & { budgetBytes?: number },
): Promise<DaysRead> {
  const scope: RollupScope = { storeUrl, source: range.dimension_source ?? "conversion", filterKey: "" };
  const fromUpstream: DayCells[] = [];
  const read = await readRange(upstream, storeUrl, range, {}, policy, { onDay: (day) => fromUpstream.push(day) });
  // As a view does: the closed days it read upstream are filled behind it, by a job.
  queueFillsQuietly(upstream, storeUrl, scope.source, read.toFill);
  const readUpstream = new Set(fromUpstream.map((day) => day.day));
  const stored: string[] = [];
  for (let day = Date.parse(`${range.startDate}T00:00:00Z`); day <= Date.parse(`${range.endDate}T00:00:00Z`); day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (!readUpstream.has(date)) stored.push(date);
  }
  const productNames = new Map<string, string>();
  for (const product of read.summary.products.values()) if (product.name) productNames.set(product.productId, product.name);
  for (const day of [...fromUpstream].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)))
    for (const cell of day.cells.values()) if (cell.name) productNames.set(cell.productId, cell.name);
  return {
    currency: read.summary.currency?.value ?? null,
    productNames,
    daysFromRollups: read.daysFromRollups,
    daysFromUpstream: read.daysFromUpstream,
    upstreamRequests: read.upstreamRequests,
    toFill: read.toFill,
    async sums(filter) {
      const days = new Map<string, PeriodSums>();
      const held = await storedDaySums(policy.db, scope, stored, filter);
      for (const row of held.channels) {
        const day = periodOf(days, row.day);
        add(day.channels, row.key, row);
        addTo(day.total, row);
      }
      for (const row of held.products) add(periodOf(days, row.day).products, row.key, row);
      for (const cells of fromUpstream)
        for (const cell of cells.cells.values()) {
          if (!cellMatches(cell, filter)) continue;
          const day = periodOf(days, cells.day);
          add(day.channels, cell.channel, cell);
          add(day.products, cell.productId, cell);
          addTo(day.total, cell);
        }
      return days;
    },
  };
}
