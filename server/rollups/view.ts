import "server-only";
import type { UpstreamClient } from "@/server/upstream/client";
import { biggestChanges } from "@/server/metrics/changes";
import { comparisonRange } from "@/shared/metrics/date-range";
import { currencyDecimals } from "@/shared/format";
import type { ComparisonMode, MetricsFilters, ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import type { CellFilter } from "./cells";
import { readRange, type ReadHooks, type ReadProgress, type RollupPolicy } from "./reader";
import { restatements } from "./restatements";
import { queueFillsQuietly } from "./fill-job";

/**
 * The product-metrics view answered from the day rollups: the same figures as a full read,
 * with how fresh they are and the range's restated days.
 */
export async function rollupView(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  filter: CellFilter,
  compare: ComparisonMode | undefined,
  policy: RollupPolicy,
  hooks: ReadHooks = {},
): Promise<ProductMetricsView> {
  const { onProgress } = hooks;
  const comparisonFilters = compare ? { ...filters, ...comparisonRange(filters, compare) } : undefined;
  // The two reads report their own progress; the page shows the sum of both.
  const done = new Map<string, ReadProgress>();
  const report = (which: string) => (progress: ReadProgress) => {
    done.set(which, progress);
    const all = [...done.values()];
    onProgress?.({
      daysRead: all.reduce((sum, p) => sum + p.daysRead, 0),
      daysToRead: all.reduce((sum, p) => sum + p.daysToRead, 0),
      rowsRead: all.reduce((sum, p) => sum + p.rowsRead, 0),
      day: progress.day,
    });
  };
  const [main, previous] = await Promise.all([
    readRange(upstream, storeUrl, filters, filter, policy, { onOpened: hooks.onOpened, onProgress: report("main") }),
    comparisonFilters
      ? readRange(upstream, storeUrl, comparisonFilters, filter, policy, { onOpened: hooks.onOpened, onProgress: report("previous") })
      : undefined,
  ]);
  const currency = main.summary.currency?.value ?? previous?.summary.currency?.value ?? null;
  const decimals = currency ? currencyDecimals(currency) : 2;
  const source = filters.dimension_source ?? "conversion";
  // The closed days read upstream are filled behind the answer, by a job (fill-job.ts); the view waits for nothing.
  queueFillsQuietly(upstream, storeUrl, source, [...main.toFill, ...(previous?.toFill ?? [])]);
  const restated = (await restatements(policy.db, storeUrl, filters)).filter((change) => change.source === source);
  const asOf = previous && previous.asOf < main.asOf ? previous.asOf : main.asOf;
  return {
    startDate: filters.startDate,
    endDate: filters.endDate,
    currency,
    ...main.summary.result(decimals),
    ...(comparisonFilters && previous
      ? {
          comparison: {
            startDate: comparisonFilters.startDate,
            endDate: comparisonFilters.endDate,
            totals: previous.summary.result(decimals).totals,
            series: previous.summary.result(decimals).series,
            changes: biggestChanges(main.summary.revenues(), previous.summary.revenues(), decimals),
          },
        }
      : {}),
    freshness: {
      asOf: asOf.toISOString(),
      daysFromRollups: main.daysFromRollups + (previous?.daysFromRollups ?? 0),
      daysFromUpstream: main.daysFromUpstream + (previous?.daysFromUpstream ?? 0),
      upstreamRequests: main.upstreamRequests + (previous?.upstreamRequests ?? 0),
    },
    // One line per restated day, oldest day first: its latest restatement.
    restated: [...new Map([...restated].reverse().map((change) => [change.day, change])).values()].map((change) => ({
      day: change.day,
      revenueChange: change.revenue.change,
      mostly: change.channels[0]?.key ?? null,
    })),
  };
}
